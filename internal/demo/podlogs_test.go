package demo

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// The demo serves pods/log and Events the way a cluster would, from what
// the simulator knows: a crash-looping pod's log ends in its crash (and has
// a previous instance), a healthy pod has none, a pod that never pulled its
// image cannot be read; a stuck rollout's Events say why. The first log
// line says the lines are canned.
func TestDemoLogsAndEvents(t *testing.T) {
	clock := time.Date(2026, 11, 30, 9, 41, 0, 0, time.UTC)
	d, snap := startDemo(t, Options{Seed: 1, Speed: 1, Now: func() time.Time { return clock }})
	fl := d.Fleet()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	find := func(app string, ok func(*model.AppView) bool) model.Key {
		t.Helper()
		for _, r := range snap.Rows() {
			if r.App == app && ok(r) {
				return r.Key()
			}
		}
		t.Fatalf("no %s row as wanted", app)
		return model.Key{}
	}
	read := func(k model.Key, previous bool) ([]string, error) {
		t.Helper()
		pods, err := fl.LogPods(ctx, k)
		if err != nil {
			t.Fatalf("LogPods %v: %v", k, err)
		}
		p := pods[model.DefaultLogPod(pods)]
		feed, err := fl.OpenLog(ctx, k, model.LogRequest{Pod: p.Name, Container: p.AppContainer, Previous: previous, Tail: -1, MaxLines: 100})
		if err != nil {
			return nil, err
		}
		var lines []string
		for {
			<-feed.Ready()
			b := feed.Take()
			lines = append(lines, b.Lines...)
			if b.Done {
				return lines, b.Err
			}
		}
	}

	crashing := find("oracle", func(r *model.AppView) bool { return r.Health == model.HealthRed })
	lines, err := read(crashing, false)
	if err != nil || len(lines) == 0 || !strings.Contains(lines[0], "[demo] canned log") || !strings.Contains(lines[len(lines)-1], "FATAL") {
		t.Errorf("crash-looping pod's log (%v):\n%s", err, strings.Join(lines, "\n"))
	}
	if prev, err := read(crashing, true); err != nil || !strings.Contains(strings.Join(prev, "\n"), "FATAL") {
		t.Errorf("its previous instance (%v): %q", err, prev)
	}
	healthy := find("iam", func(r *model.AppView) bool { return r.Health == model.HealthGreen && r.Workload.Found })
	if lines, err := read(healthy, false); err != nil || !strings.Contains(strings.Join(lines, "\n"), "listening on :8080") {
		t.Errorf("healthy pod's log (%v): %q", err, lines)
	}
	if _, err := read(healthy, true); err == nil || !strings.Contains(err.Error(), "previous terminated container") {
		t.Errorf("a pod that never restarted has no previous instance; got %v", err)
	}

	stuck := find("search", func(r *model.AppView) bool { return r.Workload.Rollout == model.RolloutStuck })
	if _, err := read(stuck, false); err == nil || !strings.Contains(err.Error(), "is waiting to start: trying and failing to pull image") {
		t.Errorf("the stuck rollout's new pod never pulled its image; reading it gave %v", err)
	}
	evs, err := fl.RecentEvents(ctx, stuck)
	if err != nil {
		t.Fatal(err)
	}
	reasons := func(evs []model.Event) []string {
		var out []string
		for _, e := range evs {
			out = append(out, e.Reason)
		}
		return out
	}(evs)
	for _, want := range []string{"BackOff", "Failed", "ScalingReplicaSet"} {
		if !slices.Contains(reasons, want) {
			t.Errorf("the stuck rollout's Events %v lack %s", reasons, want)
		}
	}
	if evs, _ := fl.RecentEvents(ctx, healthy); len(evs) != 0 {
		t.Errorf("a healthy app settled long ago has Events: %+v", evs)
	}
}
