package model

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model/imageref"
)

// OrgLabel is the label or annotation on an App that names its display org.
const OrgLabel = "hanzo.ai/org"

// Restart annotations on the workload's pod template.
const (
	RestartedAtAnnotation = "hanzo.ai/restartedAt"
	RestartedByAnnotation = "hanzo.ai/restartedBy"
	// KubectlRestartedAtAnnotation is what `kubectl rollout restart` sets.
	KubectlRestartedAtAnnotation = "kubectl.kubernetes.io/restartedAt"
)

// brands maps image namespaces to the org name the board shows.
var brands = map[string]string{"hanzoai": "hanzo", "zooai": "zoo", "luxfi": "lux"}

// sharedEndpoints is the App's list, which rows never change (clipped, so an
// append would copy): a row per App need not copy it. None is [] in JSON.
func sharedEndpoints(e []string) []string {
	if e == nil {
		return []string{}
	}
	return slices.Clip(e)
}

// Build makes one board row from an App, its workload (nil when missing) and
// the release facts for its repo and declared tag. It never panics: anything
// malformed or missing becomes a Problem on the row.
func Build(app AppObject, wl *Workload, rel Release, now time.Time) AppView {
	v := AppView{
		App:         app.Name,
		Env:         EnvOf(app.Namespace),
		Registry:    app.ImageRepository,
		DeclaredTag: app.ImageTag,
		LatestTag:   rel.LatestTag,
		Phase:       app.Phase,
		Cluster:     app.Cluster,
		Namespace:   app.Namespace,
		Endpoints:   sharedEndpoints(app.Endpoints),
		Kind:        app.Kind,
		Role:        app.Role,
		Tenant:      TenantOf(app.Namespace),
		Release:     rel,
		Conditions:  app.Conditions,
		Labels:      app.Labels,
		ObservedAt:  now,
		CreatedAt:   app.CreatedAt,
	}
	if v.Kind == "" {
		v.Kind = "App"
	}
	for _, e := range app.DecodeErrors {
		v.addProblem(ProblemMalformed, "Malformed field: "+e)
	}

	class := ClassOfApp(app)
	declared, imageOK := declaredImage(app, class, &v)
	if imageOK {
		v.Repo = declared.Repository
	}
	v.Org = orgOf(app, declared)
	if v.Org == "" {
		v.Org = v.Tenant // no label, no image: the namespace's tenant is the best guess
	}
	v.ID = v.Org + "/" + v.App + "/" + string(v.Env)

	if wl != nil && wl.Unreadable != "" { // forbidden is not missing
		v.Workload = WorkloadView{Kind: wl.Kind, Name: wl.Name, Unreadable: wl.Unreadable}
		v.addProblem(ProblemUnreadable, wl.Unreadable+": health unknown.")
		platformState(app, class, &v)
		v.Drift = driftOf(v, rel)
		return v
	}
	if wl != nil && wl.Pending != "" && class.MakesWorkload() { // not listed yet is not missing
		v.Workload = WorkloadView{Kind: wl.Kind, Name: wl.Name, Pending: wl.Pending}
		v.Health = HealthSyncing
		platformState(app, class, &v)
		v.Drift = driftOf(v, rel) // no running tag: un-rolled and floating-running cannot be said
		v.DriftSince = driftSince(app, v.Drift, rel)
		return v
	}
	if wl != nil && wl.Pending != "" {
		wl = nil // a role that makes no workload has none to wait for
	}
	v.Workload = workloadView(app, class, wl, declared, imageOK, &v)
	platformState(app, class, &v)
	if wl != nil {
		v.RunningTag = runningTag(wl, declared, imageOK)
	}
	v.Health = healthOf(wl)
	v.Drift = driftOf(v, rel)
	v.DriftSince = driftSince(app, v.Drift, rel)
	return v
}

// driftSince is when the row's oldest observed drift began, from the
// cluster or GitHub: a drift the declaration caused (un-rolled,
// floating-declared, no-release, zero-assets) began when the tag was set;
// stale began when the latest release was published (or when the tag was
// set, if that came later). A flag whose start is not known adds nothing;
// with none known the answer is nil: never this program's start.
func driftSince(app AppObject, d drift.Drift, rel Release) *time.Time {
	var oldest time.Time
	note := func(at time.Time) {
		if !at.IsZero() && (oldest.IsZero() || at.Before(oldest)) {
			oldest = at
		}
	}
	for _, f := range d.Flags {
		switch f.Kind {
		case drift.DriftUnrolled, drift.DriftFloatingDeclared, drift.DriftNoRelease, drift.DriftZeroAssets:
			note(app.TagSetAt)
		case drift.DriftStale:
			if !rel.LatestPublished.IsZero() {
				note(laterOf(rel.LatestPublished, app.TagSetAt))
			}
		}
	}
	if oldest.IsZero() {
		return nil
	}
	return &oldest
}

func laterOf(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// declaredImage parses the App's repository and tag; problems go on the row.
// A role that makes no workload may have no image (route-only, delegated):
// that is legitimate, not a problem.
func declaredImage(app AppObject, class RoleClass, v *AppView) (imageref.Image, bool) {
	if app.ImageRepository == "" {
		if class.MakesWorkload() {
			v.addProblem(ProblemNoImage, "No image declared (spec.image.repository is empty).")
		}
		return imageref.Image{}, false
	}
	repo, err := imageref.Parse(app.ImageRepository)
	if err != nil {
		v.addProblem(ProblemMalformed, "Malformed image reference: "+err.Error()+".")
		return imageref.Image{}, false
	}
	if repo.Tag != "" || repo.Digest != "" {
		v.addProblem(ProblemTagInRepository, fmt.Sprintf(
			"spec.image.repository \"%s\" carries a tag or digest; the tag belongs in spec.image.tag.", app.ImageRepository))
	}
	if app.ImageTag == "" {
		if class.MakesWorkload() {
			v.addProblem(ProblemNoTag, "No tag declared (spec.image.tag is empty): the workload runs latest.")
		}
		return repo, true
	}
	if err := imageref.CheckTag(app.ImageTag); err != nil {
		v.addProblem(ProblemMalformed, fmt.Sprintf("Malformed declared tag: %v.", err))
	}
	return repo, true
}

func orgOf(app AppObject, im imageref.Image) string {
	if org := app.Labels[OrgLabel]; org != "" {
		return org
	}
	if org := app.Annotations[OrgLabel]; org != "" {
		return org
	}
	// The namespace's label names a tenant's real org (its name carries a
	// sanitised, possibly hashed, one).
	if org := app.NamespaceLabels[NamespaceOrgLabel]; org != "" {
		return org
	}
	ns, _, ok := strings.Cut(im.Repository, "/")
	if !ok {
		return ""
	}
	if brand, ok := brands[ns]; ok {
		return brand
	}
	return ns
}

// driftOf applies the contract to observed facts only: a release that was
// not read (checks off, pending, rate-limited, failed, not looked up) is
// unknown, so its flags are withheld, never read as "no release".
func driftOf(v AppView, rel Release) drift.Drift {
	running := v.RunningTag
	if imageref.PinnedByDigest(running) {
		running = "" // pinned content: not floating, and no tag to compare
	}
	d := drift.ComputeDrift(drift.Observed{
		DeclaredTag:   v.DeclaredTag,
		RunningTag:    running,
		LatestTag:     rel.LatestTag,
		ReleaseURL:    rel.URL,
		ReleaseAssets: rel.Assets,
	})
	if rel.Checked() {
		return d
	}
	kept := d.Flags[:0]
	for _, f := range d.Flags {
		if !releaseFlag(f.Kind) {
			kept = append(kept, f)
		}
	}
	return drift.Drift{Severity: drift.DriftSeverityOf(kept), Flags: kept}
}
