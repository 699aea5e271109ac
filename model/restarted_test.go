package model

import (
	"testing"
	"time"
)

func TestLastRestartIsTheNewestStamp(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		ann    map[string]string
		at, by string
	}{
		{"none", map[string]string{}, "", ""},
		{"driftboard only", map[string]string{RestartedAtAnnotation: "2026-11-30T10:00:00Z", RestartedByAnnotation: "ops@hanzo.ai"}, "2026-11-30T10:00:00Z", "ops@hanzo.ai"},
		{"kubectl only", map[string]string{KubectlRestartedAtAnnotation: "2026-11-30T11:00:00Z"}, "2026-11-30T11:00:00Z", "kubectl rollout restart"},
		{"kubectl newer", map[string]string{RestartedAtAnnotation: "2026-11-30T10:00:00Z", RestartedByAnnotation: "ops@hanzo.ai",
			KubectlRestartedAtAnnotation: "2026-11-30T11:00:00Z"}, "2026-11-30T11:00:00Z", "kubectl rollout restart"},
		{"driftboard newer", map[string]string{RestartedAtAnnotation: "2026-11-30T12:00:00Z", RestartedByAnnotation: "ops@hanzo.ai",
			KubectlRestartedAtAnnotation: "2026-11-30T11:00:00Z"}, "2026-11-30T12:00:00Z", "ops@hanzo.ai"},
	} {
		wl := baseWorkload()
		wl.TemplateAnnotations = tc.ann
		v := Build(baseApp(), wl, foundRelease(), t0)
		if v.Workload.RestartedAt != tc.at || v.Workload.RestartedBy != tc.by {
			t.Errorf("%s: last restart %q by %q, want %q by %q", tc.name, v.Workload.RestartedAt, v.Workload.RestartedBy, tc.at, tc.by)
		}
	}
}

func TestDriftSinceIsWhenTheTagWasSet(t *testing.T) {
	t.Parallel()
	set := t0.Add(-3 * time.Hour)
	a := baseApp()
	a.ImageTag, a.TagSetAt = "v1.3.0", set // un-rolled: the workload runs v1.2.3
	if v := Build(a, baseWorkload(), Release{State: ReleaseFound, URL: "u", Assets: 1}, t0); v.DriftSince == nil || !v.DriftSince.Equal(set) {
		t.Errorf("un-rolled since %v, want the tag's set time %v", v.DriftSince, set)
	}
	a.TagSetAt = time.Time{}
	if v := Build(a, baseWorkload(), Release{State: ReleaseFound, URL: "u", Assets: 1}, t0); v.DriftSince != nil {
		t.Errorf("unknown set time: since %v, want nil", v.DriftSince)
	}
}

// Stale since the latest release's publication (GitHub's published_at), or
// since the tag was set when that came later; the row's drift-age is its
// oldest observed drift; unknown stays nil.
func TestStaleSinceIsTheLatestPublication(t *testing.T) {
	t.Parallel()
	published := t0.Add(-48 * time.Hour)
	stale := foundRelease()
	stale.LatestTag, stale.LatestPublished = "v1.3.0", published // the pods run the declared v1.2.3
	for _, tc := range []struct {
		name   string
		tagSet time.Time
		image  string // the workload's, to make it un-rolled
		rel    func(Release) Release
		want   time.Time // zero: nil
	}{
		{"stale alone", time.Time{}, "", nil, published},
		{"publication unknown", time.Time{}, "", func(r Release) Release { r.LatestPublished = time.Time{}; return r }, time.Time{}},
		{"tag set after the release", t0.Add(-2 * time.Hour), "", nil, t0.Add(-2 * time.Hour)},
		{"stale and un-rolled: the older", t0.Add(-72 * time.Hour), "ghcr.io/hanzoai/iam:v1.2.2", nil, t0.Add(-72 * time.Hour)},
		{"un-rolled, tag time unknown: stale's", time.Time{}, "ghcr.io/hanzoai/iam:v1.2.2", nil, published},
		{"release not read: no stale, nothing known", time.Time{}, "", func(r Release) Release { return Release{State: ReleasePending} }, time.Time{}},
	} {
		a := baseApp()
		a.TagSetAt = tc.tagSet
		wl := baseWorkload()
		if tc.image != "" {
			wl.Containers[len(wl.Containers)-1].Image = tc.image
		}
		rel := stale
		if tc.rel != nil {
			rel = tc.rel(rel)
		}
		v := Build(a, wl, rel, t0)
		switch {
		case tc.want.IsZero() && v.DriftSince != nil:
			t.Errorf("%s: since %v, want nil (unknown)", tc.name, v.DriftSince)
		case !tc.want.IsZero() && (v.DriftSince == nil || !v.DriftSince.Equal(tc.want)):
			t.Errorf("%s: since %v, want %v (flags %v)", tc.name, v.DriftSince, tc.want, kindsOf(v.Drift))
		}
	}
}
