package kube

import (
	"time"

	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
)

// Services on the Helm chart plane have no App CR: their rows come from
// their CD Application and the Deployment it lists (model.BuildChart).

// chartRow builds the row of a chart-plane service with no App CR.
func (f *Fleet) chartRow(c *cluster, k model.Key, now time.Time) (model.AppView, bool) {
	a, view := c.cd.Chart(k)
	if a == nil {
		return model.AppView{}, false
	}
	wl := c.chartWorkload(k)
	repo, tag, _ := model.ChartDeclared(a, wl)
	v := model.BuildChart(a, k, wl, f.release(model.AppObject{ImageRepository: repo, ImageTag: tag}), now)
	f.messages.share(v.Drift.Flags)
	v.Git = model.ChartGitSync(view, a, k)
	return v, true
}

// gitSync is the row's git state: the App (or Service) CR as CD lists it.
func (c *cluster) gitSync(app model.AppObject) model.GitSync {
	return model.GitSyncOf(c.cd.View(), appsGVR.Group, app.Kind, app.Namespace, app.Name)
}

// chartWorkload is the Deployment a chart-plane row shows (nil when none).
func (c *cluster) chartWorkload(k model.Key) *model.Workload {
	if s := c.scopeFor(k.Namespace); s != nil {
		if we, ok := s.get("deployments", k.Namespace, k.Name).(*wire.WorkloadEntry); ok {
			return c.workload(s, k, we)
		}
	}
	return nil
}

// chartApp stands in for the App CR a chart-plane row lacks, for the reads
// that start from one (the pods' digests): a service whose image is the
// one the row declares.
func (c *cluster) chartApp(k model.Key) (model.AppObject, bool) {
	a, _ := c.cd.Chart(k)
	if a == nil {
		return model.AppObject{}, false
	}
	repo, tag, _ := model.ChartDeclared(a, c.chartWorkload(k))
	return model.AppObject{Key: k, Kind: model.KindChart, Role: "service", ImageRepository: repo, ImageTag: tag}, true
}
