package board

import (
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/styles"
)

// t0 is the fixed clock of these tests.
var t0 = time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)

// problemRow builds a clean row through model.Build, then lets change break
// it the way a real cluster can.
func problemRow(name string, change func(*model.AppObject, **model.Workload)) model.AppView {
	repo := "ghcr.io/hanzoai/" + name
	obj := model.AppObject{
		Key:  model.Key{Cluster: "prod", Namespace: "hanzo", Name: name},
		Kind: "App", ImageRepository: repo, ImageTag: "v1.0.0", Phase: "Running",
	}
	r := int32(1)
	wl := &model.Workload{
		Kind: model.KindDeployment, Name: name, OwnedByApp: true, Replicas: &r,
		ReadyReplicas: 1, UpdatedReplicas: 1, AvailableReplicas: 1,
		Containers: []model.Container{{Name: name, Image: repo + ":v1.0.0"}},
	}
	change(&obj, &wl)
	rel := model.Release{State: model.ReleaseFound, LatestTag: "v1.0.0", Assets: 1, URL: "https://github.com/x", CheckedAt: t0}
	return model.Build(obj, wl, rel, t0)
}

func TestProblemCell(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		change func(*model.AppObject, **model.Workload)
		want   string
	}{
		{"clean", func(*model.AppObject, **model.Workload) {}, ""},
		{"missing workload", func(_ *model.AppObject, wl **model.Workload) { *wl = nil }, "! no workload"},
		{"legacy", func(_ *model.AppObject, wl **model.Workload) { (*wl).OwnedByApp = false }, "! legacy"},
		{"kind mismatch", func(a *model.AppObject, _ **model.Workload) { a.Role = "ingress" }, "! kind"},
		{"no image", func(a *model.AppObject, _ **model.Workload) { a.ImageRepository = "" }, "! no image"},
		{"no tag", func(a *model.AppObject, _ **model.Workload) { a.ImageTag = "" }, "! no tag"},
		{"tag in repository", func(a *model.AppObject, _ **model.Workload) { a.ImageRepository += ":v1" }, "! problem"},
		{"malformed field", func(a *model.AppObject, _ **model.Workload) {
			a.DecodeErrors = []string{"spec.replicas: not a number"}
		}, "! malformed"},
		{"unknown kind", nil, "! problem"},
		{"crash-looping new pods, named", func(_ *model.AppObject, wl **model.Workload) {
			(*wl).ReadyReplicas = 0
			(*wl).FailingPods = []model.PodFailure{{Pod: "x-7d9f-b", Reason: "CrashLoopBackOff"},
				{Pod: "x-7d9f-a", Reason: "CrashLoopBackOff"}, {Pod: "x-7d9f-c", Reason: "CrashLoopBackOff"}}
		}, "! CrashLoopBackOff: x-7d9f-a (+2)"},
		{"failing pods after another problem", func(_ *model.AppObject, wl **model.Workload) {
			(*wl).OwnedByApp = false
			(*wl).FailingPods = []model.PodFailure{{Pod: "x-1", Reason: "ImagePullBackOff"}}
		}, "! ImagePullBackOff: x-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var problems []model.Problem
			if tt.change == nil {
				problems = []model.Problem{{Kind: "something-new", Text: "Something new went wrong."}}
			} else {
				problems = problemRow("x", tt.change).Problems
			}
			if got := problemCell(problems); got != tt.want {
				t.Errorf("problemCell(%q) = %q, want %q", problems, got, tt.want)
			}
		})
	}
}

// A narrow FLAGS column truncates the marker rather than hiding it.
func TestProblemMarkerTruncated(t *testing.T) {
	t.Parallel()
	v := problemRow("x", func(_ *model.AppObject, wl **model.Workload) { *wl = nil })
	var b strings.Builder
	st := styles.New(true, true)
	writeFlags(&b, &st, &v, 8, false)
	if got := b.String(); got != "! no wo…" {
		t.Errorf("8-column FLAGS = %q", got)
	}

	// With drift flags as well, a narrow column keeps the flags and a bare "!".
	v = problemRow("x", func(a *model.AppObject, wl **model.Workload) {
		a.ImageTag = "v2.0.0"
		(*wl).OwnedByApp = false
	})
	for _, c := range []struct {
		w    int
		want string
	}{{8, "! ST UR "}, {17, "! legacy ST UR   "}} {
		b.Reset()
		writeFlags(&b, &st, &v, c.w, false)
		if got := b.String(); got != c.want {
			t.Errorf("%d-column FLAGS with %v = %q, want %q", c.w, v.Drift.Flags, got, c.want)
		}
	}
}
