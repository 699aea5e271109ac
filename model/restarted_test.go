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
