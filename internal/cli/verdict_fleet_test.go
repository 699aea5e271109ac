package cli

import (
	"time"

	"github.com/hanzoai/driftboard/model"
)

var verdictNow = time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)

// verdictCase is one row of every kind and the one answer every output
// must give for it: the mark's word as text prints it (ok, yellow, red,
// n/a) and whether --fail-on-unknown counts it.
type verdictCase struct {
	name    string
	want    string
	unknown bool
	row     model.AppView
}

// verdictRow builds a clean row (service role, v1.2.0 declared, running and
// released, 2/2 ready and rolled out), then lets edit make it what the case
// is about, through the same Build the board uses.
func verdictRow(name string, edit func(a *model.AppObject, wl **model.Workload, rel *model.Release)) model.AppView {
	a := model.AppObject{Key: model.Key{Cluster: "prod", Namespace: "hanzo", Name: name}, Kind: "App", Role: "service",
		ImageRepository: "ghcr.io/hanzoai/" + name, ImageTag: "v1.2.0", Phase: "Running"}
	two := int32(2)
	wl := &model.Workload{Kind: model.KindDeployment, Name: name, OwnedByApp: true, Replicas: &two,
		ReadyReplicas: 2, UpdatedReplicas: 2, AvailableReplicas: 2, RolledOut: true,
		Containers: []model.Container{{Name: name, Image: a.ImageRepository + ":v1.2.0"}}}
	rel := model.Release{State: model.ReleaseFound, LatestTag: "v1.2.0", Assets: 2,
		URL: "https://github.com/hanzoai/" + name + "/releases/tag/v1.2.0"}
	if edit != nil {
		edit(&a, &wl, &rel)
	}
	return model.Build(a, wl, rel, verdictNow)
}

func running(wl *model.Workload, tag string) {
	wl.Containers[0].Image = "ghcr.io/hanzoai/" + wl.Name + ":" + tag
}

func unreadable(a *model.AppObject) *model.Workload {
	return &model.Workload{Kind: model.KindDeployment, Name: a.Name, Unreadable: "cannot read Deployments in hanzo (forbidden)"}
}

type rowEdit = func(a *model.AppObject, wl **model.Workload, rel *model.Release)

// verdictFleet is one row of every kind, with its golden answer.
func verdictFleet() []verdictCase {
	cases := []struct {
		name, want string
		unknown    bool
		edit       rowEdit
	}{
		{"clean", "ok", false, nil},
		{"floatdecl", "red", false, func(a *model.AppObject, wl **model.Workload, _ *model.Release) {
			a.ImageTag = "latest"
			running(*wl, "latest")
		}},
		{"floatrun", "red", false, func(_ *model.AppObject, wl **model.Workload, _ *model.Release) { running(*wl, "main") }},
		{"stale", "yellow", false, func(a *model.AppObject, wl **model.Workload, rel *model.Release) {
			a.ImageTag = "v1.1.0"
			running(*wl, "v1.1.0")
			rel.URL = "https://github.com/hanzoai/stale/releases/tag/v1.1.0"
		}},
		{"unrolled", "yellow", false, func(_ *model.AppObject, wl **model.Workload, _ *model.Release) { running(*wl, "v1.1.0") }},
		{"norelease", "red", false, func(_ *model.AppObject, _ **model.Workload, rel *model.Release) {
			*rel = model.Release{State: model.ReleaseNone, LatestTag: "v1.1.0"}
		}},
		{"zeroassets", "red", false, func(_ *model.AppObject, _ **model.Workload, rel *model.Release) { rel.Assets = 0 }},
		{"forbidden", "n/a", true, func(a *model.AppObject, wl **model.Workload, _ *model.Release) { *wl = unreadable(a) }},
		{"pendingwl", "n/a", true, func(a *model.AppObject, wl **model.Workload, _ *model.Release) {
			*wl = &model.Workload{Kind: model.KindDeployment, Name: a.Name, Pending: "Deployments not listed yet"}
		}},
		{"noworkload", "red", false, func(_ *model.AppObject, wl **model.Workload, _ *model.Release) { *wl = nil }},
		{"bydesign", "ok", false, func(a *model.AppObject, wl **model.Workload, _ *model.Release) {
			a.Role, *wl = "ingress", nil
		}},
		{"crashloop", "red", false, func(_ *model.AppObject, wl **model.Workload, _ *model.Release) {
			(*wl).UpdatedReplicas = 1 // the new pod crash-loops, the old ones serve
			(*wl).FailingPods = []model.PodFailure{{Pod: "crashloop-7d9f-x2", Reason: "CrashLoopBackOff"}}
		}},
		{"degraded", "red", false, func(a *model.AppObject, wl **model.Workload, _ *model.Release) {
			a.Phase = "Degraded"
			(*wl).ReadyReplicas, (*wl).AvailableReplicas = 0, 0
		}},
		{"halfready", "yellow", false, func(_ *model.AppObject, wl **model.Workload, _ *model.Release) {
			(*wl).ReadyReplicas, (*wl).AvailableReplicas = 1, 1
		}},
		{"relpending", "n/a", true, func(_ *model.AppObject, _ **model.Workload, rel *model.Release) {
			*rel = model.Release{State: model.ReleasePending}
		}},
		{"reloff", "n/a", true, func(_ *model.AppObject, _ **model.Workload, rel *model.Release) {
			*rel = model.Release{State: model.ReleaseOff, Detail: "release checks are off"}
		}},
		// Observed drift beats what is unknown; --fail-on-unknown still counts it.
		{"unrolledlimited", "yellow", true, func(_ *model.AppObject, wl **model.Workload, rel *model.Release) {
			running(*wl, "v1.1.0")
			*rel = model.Release{State: model.ReleaseRateLimited, Detail: "until 08:30"}
		}},
		{"floatunread", "red", true, func(a *model.AppObject, wl **model.Workload, _ *model.Release) {
			a.ImageTag = "latest"
			*wl = unreadable(a)
		}},
		{"legacy", "yellow", false, func(_ *model.AppObject, wl **model.Workload, _ *model.Release) { (*wl).OwnedByApp = false }},
	}
	out := make([]verdictCase, 0, len(cases))
	for _, c := range cases {
		out = append(out, verdictCase{name: c.name, want: c.want, unknown: c.unknown, row: verdictRow(c.name, c.edit)})
	}
	return out
}

// jsonWord is a text word as JSON and the query's values spell it.
func jsonWord(word string) string {
	if word == "n/a" {
		return "unknown"
	}
	return word
}

// boardLabel is the word with its glyph, as the board and detail show it.
func boardLabel(word string) string {
	return map[string]string{"ok": "✓ ok", "yellow": "▲ yellow", "red": "✖ red", "n/a": "? n/a"}[word]
}

// rankOf orders the words as the severity sort does: red first, ok last.
func rankOf(word string) int {
	return map[string]int{"red": 3, "yellow": 2, "n/a": 1, "ok": 0}[word]
}
