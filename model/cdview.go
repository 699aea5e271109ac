package model

import (
	"cmp"
	"slices"
	"strings"
	"time"
)

// CD (Hanzo CD, an Argo CD fork) syncs App CRs from git. Its Application
// objects say, per managed object, whether the cluster matches git; this file
// turns those observed facts into a row's git state. Nothing here guesses
// what git holds beyond what an Application reported.

// KindChart is the Kind of a row made from a chart-plane CD Application:
// the service has no App CR, only its Application (and what it deploys).
const KindChart = "chart"

// CDTrackingIDAnnotation is the key Hanzo CD writes on what it syncs:
// <application>:<group>/<kind>:<namespace>/<name>.
const CDTrackingIDAnnotation = "apps.hanzo.ai/tracking-id"

// CDResource is one entry of an Application's status.resources.
type CDResource struct {
	Group     string `json:"group,omitempty"`
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	Status    string `json:"status,omitempty"` // Synced | OutOfSync | "" (not reported)
	Health    string `json:"health,omitempty"`
}

// CDOperation is an Application's status.operationState: its last sync.
type CDOperation struct {
	Phase      string    `json:"phase,omitempty"` // Running | Succeeded | Failed | Error | Terminating
	Message    string    `json:"message,omitempty"`
	FinishedAt time.Time `json:"finishedAt,omitzero"`
}

// CDImage is the image a chart-plane Application declares in its Helm
// parameters or values (empty when it declares none that could be read).
type CDImage struct {
	Repository string `json:"repository,omitempty"`
	Tag        string `json:"tag,omitempty"`
	Digest     string `json:"digest,omitempty"`
	From       string `json:"from,omitempty"` // where it was read, e.g. "helm parameter image.tag"
}

// CDApplication is what the kube layer observed of one Application.
type CDApplication struct {
	Cluster   string
	Group     string // apps.hanzo.ai (Hanzo CD) or argoproj.io
	Namespace string
	Name      string
	RepoURL   string // spec.source.repoURL
	Path      string // spec.source.path: where the declarations live in git
	// TargetRevision is spec.source.targetRevision: the branch (or tag, or
	// commit) the Application follows; "" is the repository's HEAD.
	TargetRevision string
	// Automated: spec.syncPolicy.automated is set, so the Application syncs
	// by itself and a refresh, not a sync operation, makes it look at git.
	Automated  bool
	Chart      string // spec.source.chart: set for the Helm chart plane
	DestNS     string // spec.destination.namespace
	Revision   string // status.sync.revision (a commit, or a chart version)
	SyncStatus string // status.sync.status: Synced | OutOfSync | Unknown
	Health     string // status.health.status
	Operation  CDOperation
	Resources  []CDResource
	Image      CDImage
	// ResourcesCapped: status.resources held more entries than are kept.
	ResourcesCapped bool
	DecodeErrors    []string
}

// ShortRevision is a commit shortened as git does (7 hex digits); any other
// revision (a chart version) is kept as is.
func ShortRevision(rev string) string {
	if len(rev) >= 40 && strings.Trim(rev, "0123456789abcdef") == "" {
		return rev[:7]
	}
	return rev
}

// GitState is a row's sync state against git.
type GitState string

const (
	GitSynced     GitState = "synced"
	GitOutOfSync  GitState = "out-of-sync" // git declares something else
	GitNotManaged GitState = "not-managed" // no Application lists the object
	GitUnknown    GitState = "unknown"     // see GitSync.Why
)

// Why a git state is unknown.
const (
	GitWhyNoKind       = "no Application kind served"
	GitWhyForbidden    = "Applications not readable (forbidden)"
	GitWhyNotSynced    = "Applications not synced yet"
	GitWhyUndiscovered = "Application kinds could not be discovered"
	GitWhyNotCounted   = "the Application lists too many resources; this one was not kept"
	gitWhyNoStatus     = "the Application reports no sync status for it"
)

// GitSync is a row's git state and the Application behind it.
type GitSync struct {
	State GitState `json:"state"`
	Why   string   `json:"why,omitempty"` // for unknown and not-managed
	// Application is "<group>/<namespace>/<name>" of the owning Application.
	Application string       `json:"application,omitempty"`
	Revision    string       `json:"revision,omitempty"` // short commit git was compared at
	Path        string       `json:"path,omitempty"`     // spec.source.path
	Health      string       `json:"health,omitempty"`   // the object's health as CD reports it
	LastSync    *CDOperation `json:"lastSync,omitempty"`
}

// KindServed reports whether the row's cluster serves an Application kind.
func (g GitSync) KindServed() bool { return !(g.State == GitUnknown && g.Why == GitWhyNoKind) }

// CDView is what one cluster's CD tells: the Applications when they could be
// read, else why not (Why is one of the GitWhy constants). Build it with
// NewCDView: rows look their object up in its index.
type CDView struct {
	Why string
	// Unfollowed are CD kinds (their CRDs' names) not served when the watch
	// was set up and not followed since (their CRD may not be watched):
	// "not-managed" then means no Application of the kinds read lists it.
	Unfollowed []string
	Apps       []*CDApplication
	index      map[cdKey]cdHit
	capped     bool
}

type cdKey struct{ group, kind, ns, name string }

type cdHit struct {
	app *CDApplication
	res *CDResource
}

// NewCDView indexes the Applications' resources. When two Applications
// list the same object (a misconfiguration CD warns about), the first by
// group/namespace/name wins, so the answer does not depend on map order.
func NewCDView(why string, apps []*CDApplication) CDView {
	slices.SortFunc(apps, func(a, b *CDApplication) int {
		return cmp.Or(cmp.Compare(a.Group, b.Group), cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	v := CDView{Why: why, Apps: apps, index: map[cdKey]cdHit{}}
	for _, a := range apps {
		v.capped = v.capped || a.ResourcesCapped
		for i := range a.Resources {
			r := &a.Resources[i]
			k := cdKey{r.Group, r.Kind, r.Namespace, r.Name}
			if _, dup := v.index[k]; !dup {
				v.index[k] = cdHit{a, r}
			}
		}
	}
	return v
}

// GitSyncOf finds the Application that lists the object group/kind ns/name
// in its status.resources and reports its sync state.
func GitSyncOf(cd CDView, group, kind, ns, name string) GitSync {
	if cd.Why != "" {
		return GitSync{State: GitUnknown, Why: cd.Why}
	}
	if hit, ok := cd.index[cdKey{group, kind, ns, name}]; ok {
		return gitSyncFrom(hit.app, hit.res.Status, hit.res.Health, gitWhyNoStatus)
	}
	if cd.capped {
		return GitSync{State: GitUnknown, Why: GitWhyNotCounted}
	}
	why := "no Application lists it"
	if len(cd.Unfollowed) > 0 {
		why += "; not read: " + strings.Join(cd.Unfollowed, ", ") +
			", not served at set-up and its CustomResourceDefinition may not be watched: installed since, it is seen after a restart"
	}
	return GitSync{State: GitNotManaged, Why: why}
}

// GitChanged reports whether the object group/kind ns/name has another git
// state in v than in old, so an Application change re-evaluates only the
// rows it moved (Argo CD rewrites its status often).
func (v CDView) GitChanged(old CDView, group, kind, ns, name string) bool {
	a, b := GitSyncOf(v, group, kind, ns, name), GitSyncOf(old, group, kind, ns, name)
	if (a.LastSync == nil) != (b.LastSync == nil) || (a.LastSync != nil && *a.LastSync != *b.LastSync) {
		return true
	}
	a.LastSync, b.LastSync = nil, nil
	return a != b
}

// gitSyncFrom is what an Application says of one object (its status.resources
// entry) or, for a chart row, of itself.
func gitSyncFrom(a *CDApplication, status, health, noStatus string) GitSync {
	g := GitSync{Application: a.Group + "/" + a.Namespace + "/" + a.Name,
		Revision: ShortRevision(a.Revision), Path: a.Path, Health: health}
	if a.Operation.Phase != "" {
		op := a.Operation
		g.LastSync = &op
	}
	switch status {
	case "Synced":
		g.State = GitSynced
	case "OutOfSync":
		g.State = GitOutOfSync
	default:
		g.State, g.Why = GitUnknown, noStatus
	}
	return g
}
