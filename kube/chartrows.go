package kube

import (
	"time"

	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
)

// Services on the Helm chart plane have no App CR: their rows come from
// their CD Application and the Deployment it lists (model.BuildChart).

// chartKeys are the rows of chart-plane Applications.
func (c *cluster) chartKeys() []model.Key {
	w := c.cdWatch()
	if w == nil {
		return nil
	}
	return w.chartKeys()
}

// chartRow builds the row of a chart-plane service with no App CR.
func (f *Fleet) chartRow(c *cluster, k model.Key, now time.Time) (model.AppView, bool) {
	w := c.cdWatch()
	if w == nil {
		return model.AppView{}, false
	}
	w.mu.Lock()
	a, view := w.charts[k], w.view
	w.mu.Unlock()
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
	return model.GitSyncOf(c.cdView(), appsGVR.Group, app.Kind, app.Namespace, app.Name)
}

// isChartRow reports whether k is a chart-plane row (no App CR).
func (c *cluster) isChartRow(k model.Key) bool {
	w := c.cdWatch()
	if w == nil {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.charts[k] != nil
}

// cdView is the cluster's CD view as of the last refreshCD.
func (c *cluster) cdView() model.CDView {
	w := c.cdWatch()
	if w == nil {
		return model.NewCDView(model.GitWhyNotSynced, nil)
	}
	if w.why != "" {
		return model.NewCDView(w.why, nil)
	}
	if w.run.gone.Load() { // its Applications are no fact about git any more
		return model.NewCDView(model.GitWhyNotSynced, nil)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.ready {
		return model.NewCDView(model.GitWhyNotSynced, nil)
	}
	return w.view
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
	w := c.cdWatch()
	if w == nil {
		return model.AppObject{}, false
	}
	w.mu.Lock()
	a := w.charts[k]
	w.mu.Unlock()
	if a == nil {
		return model.AppObject{}, false
	}
	repo, tag, _ := model.ChartDeclared(a, c.chartWorkload(k))
	return model.AppObject{Key: k, Kind: model.KindChart, Role: "service", ImageRepository: repo, ImageTag: tag}, true
}
