package model

import (
	"slices"
	"time"

	"github.com/hanzoai/driftboard/model/imageref"
)

// Services on the Helm chart plane have no App CR: only a CD Application
// (kind chart) and what it deploys. Their rows are built from those facts
// with the same drift rules; what neither says stays unknown.

// IsChartApplication reports whether the Application deploys a Helm chart
// rather than App CRs: it has a chart or Helm image settings, and lists no
// hanzo.ai object (those are rows of their own).
func IsChartApplication(a *CDApplication) bool {
	if a.Chart == "" && a.Image == (CDImage{}) {
		return false
	}
	for _, r := range a.Resources {
		if r.Group == "hanzo.ai" {
			return false
		}
	}
	return true
}

// ChartRowKeys are the rows a chart Application makes: one per Deployment it
// lists, else one named after the Application in its destination namespace.
func ChartRowKeys(a *CDApplication) []Key {
	var keys []Key
	for _, r := range a.Resources {
		if r.Group == "apps" && r.Kind == "Deployment" && r.Name != "" {
			keys = append(keys, Key{Cluster: a.Cluster, Namespace: r.Namespace, Name: r.Name})
		}
	}
	if len(keys) == 0 && a.Name != "" {
		keys = append(keys, Key{Cluster: a.Cluster, Namespace: cmpOr(a.DestNS, a.Namespace), Name: a.Name})
	}
	return keys
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// BuildChart makes the row of a chart-plane service k from its Application
// and the Deployment of that name (nil when not found). The declared image
// is the Application's Helm setting; without one, the Deployment's template
// (the chart as CD rendered it) stands in, and the row says so.
func BuildChart(a *CDApplication, k Key, wl *Workload, rel Release, now time.Time) AppView {
	repo, tag, from := ChartDeclared(a, wl)
	obj := AppObject{Key: k, Kind: KindChart, Role: "service", ImageRepository: repo, ImageTag: tag}
	v := Build(obj, wl, rel, now)
	v.Role = ""
	// CD, not an App, owns a chart's Deployment; a missing tag is the
	// Application's, not spec.image.tag.
	v.Problems = slices.DeleteFunc(v.Problems, func(p Problem) bool {
		return p.Kind == ProblemLegacyWorkload || p.Kind == ProblemNoTag || p.Kind == ProblemNoImage
	})
	switch {
	case obj.ImageRepository == "":
		v.addProblem(ProblemNoImage, "The Application declares no image (Helm image.repository) and no Deployment was found: the image is unknown.")
	case obj.ImageTag == "":
		v.addProblem(ProblemNoTag, "Neither the Application (Helm image.tag) nor its Deployment names a tag: the declared tag is unknown.")
	}
	v.Chart = &ChartSource{Application: a.Group + "/" + a.Namespace + "/" + a.Name, Chart: a.Chart,
		RepoURL: a.RepoURL, TagFrom: from, Digest: a.Image.Digest}
	return v
}

// ChartDeclared is the image a chart row declares and where its tag was
// read: the Application's Helm setting, else the Deployment's template.
func ChartDeclared(a *CDApplication, wl *Workload) (repo, tag, from string) {
	repo, tag, from = a.Image.Repository, a.Image.Tag, a.Image.From
	if wl == nil || len(wl.Containers) == 0 {
		return repo, tag, from
	}
	im, err := imageref.Parse(wl.Containers[0].Image)
	if err != nil {
		return repo, tag, from
	}
	if repo == "" {
		repo = joinRegistry(im)
	}
	if tag == "" && im.Tag != "" {
		tag, from = im.Tag, "the Deployment's template (the chart as CD rendered it)"
	}
	return repo, tag, from
}

// ChartSource says where a chart row's facts come from.
type ChartSource struct {
	Application string `json:"application"`
	Chart       string `json:"chart,omitempty"`
	RepoURL     string `json:"repoURL,omitempty"`
	TagFrom     string `json:"tagFrom,omitempty"` // where the declared tag was read
	Digest      string `json:"digest,omitempty"`  // the Helm image.digest, when set
}

func joinRegistry(im imageref.Image) string {
	if im.Registry == "" {
		return im.Repository
	}
	return im.Registry + "/" + im.Repository
}

const gitWhyNoStatusChart = "the Application reports no sync status"

// ChartGitSync is a chart row's git state: its Deployment as the
// Application lists it, else the Application's own sync status.
func ChartGitSync(cd CDView, a *CDApplication, k Key) GitSync {
	if g := GitSyncOf(cd, "apps", "Deployment", k.Namespace, k.Name); g.State != GitNotManaged {
		return g
	}
	return gitSyncFrom(a, a.SyncStatus, a.Health, gitWhyNoStatusChart)
}
