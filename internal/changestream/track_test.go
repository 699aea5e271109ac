package changestream

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/query"
	"github.com/hanzoai/driftboard/model/store"
)

var t0 = time.Date(2026, 12, 1, 4, 0, 0, 0, time.UTC)

func row(cluster, ns, app, declared, running string, sev drift.DriftSeverity, flags ...drift.DriftKind) *model.AppView {
	v := &model.AppView{ID: "hanzo/" + app + "/main", App: app, Env: "main", Cluster: cluster, Namespace: ns,
		DeclaredTag: declared, RunningTag: running, Health: model.HealthGreen,
		Workload: model.WorkloadView{Rollout: model.RolloutComplete}}
	v.Drift.Severity = sev
	for _, f := range flags {
		v.Drift.Flags = append(v.Drift.Flags, drift.DriftFlag{Kind: f})
	}
	return v
}

func snap(version uint64, clusters map[string]model.ConnPhase, rows ...*model.AppView) *store.Snapshot {
	s := store.NewSnapshot(rows)
	s.Version = version
	for _, name := range []string{"a", "b"} {
		if p, ok := clusters[name]; ok {
			s.Clusters = append(s.Clusters, model.ClusterState{Name: name, Phase: p})
		}
	}
	return s
}

// brief is an event reduced to what the tests compare.
func brief(evs []Event) []string {
	var out []string
	for _, ev := range evs {
		s := string(ev.Event) + " " + ev.Cluster
		if ev.App != "" {
			s += "/" + ev.Namespace + "/" + ev.App
		}
		switch b := ev.Before.(type) {
		case *Verdict:
			s += " " + b.Severity + "," + b.RunningTag
		case *ClusterView:
			s += " " + b.State
		}
		switch a := ev.After.(type) {
		case *Verdict:
			s += " -> " + a.Severity + "," + a.RunningTag
		case *ClusterView:
			s += " -> " + a.State
		}
		if ev.Summary != nil {
			s += " total=" + string(rune('0'+ev.Summary.Total))
		}
		out = append(out, s)
	}
	return out
}

func TestTrackerReportsOnlyObservedChanges(t *testing.T) {
	t.Parallel()
	live := map[string]model.ConnPhase{"a": model.ConnLive, "b": model.ConnSyncing}
	tr := NewTracker(query.Query{}, false)
	iam := row("a", "hanzo", "iam", "v1", "v1", drift.SeverityOK)
	kv := row("a", "hanzo", "kv", "v1", "v1", drift.SeverityOK)
	steps := []struct {
		name string
		snap *store.Snapshot
		want []string
	}{
		{"first rows and a summary; b has not synced", snap(1, live, iam, kv),
			[]string{"current a/hanzo/iam -> ok,v1", "current a/hanzo/kv -> ok,v1", "summary  total=2"}},
		{"a resync with the same verdicts", snap(2, live, row("a", "hanzo", "iam", "v1", "v1", drift.SeverityOK), kv), nil},
		{"a change", snap(3, live, row("a", "hanzo", "iam", "v2", "v1", drift.SeverityYellow, drift.DriftUnrolled), kv),
			[]string{"changed a/hanzo/iam ok,v1 -> yellow,v1"}},
		{"cluster a reconnecting, rows unchanged", snap(4, map[string]model.ConnPhase{"a": model.ConnReconnecting, "b": model.ConnSyncing},
			row("a", "hanzo", "iam", "v2", "v1", drift.SeverityYellow, drift.DriftUnrolled), kv),
			[]string{"cluster a live -> reconnecting"}},
		{"b syncs: its rows are current, not added; a is live again and kv was deleted meanwhile",
			snap(5, map[string]model.ConnPhase{"a": model.ConnLive, "b": model.ConnLive},
				row("a", "hanzo", "iam", "v2", "v1", drift.SeverityYellow, drift.DriftUnrolled), row("b", "hanzo", "iam", "v1", "v1", drift.SeverityOK)),
			[]string{"cluster a reconnecting -> live", "cluster b syncing -> live", "current b/hanzo/iam -> ok,v1", "deleted a/hanzo/kv ok,v1"}},
		{"an app added", snap(6, map[string]model.ConnPhase{"a": model.ConnLive, "b": model.ConnLive},
			row("a", "hanzo", "iam", "v2", "v1", drift.SeverityYellow, drift.DriftUnrolled), row("a", "hanzo", "queue", "v1", "v1", drift.SeverityOK),
			row("b", "hanzo", "iam", "v1", "v1", drift.SeverityOK)),
			[]string{"added a/hanzo/queue -> ok,v1"}},
	}
	for i, st := range steps {
		got := brief(tr.Observe(st.snap, t0.Add(time.Duration(i)*time.Second)))
		if d := cmp.Diff(st.want, got); d != "" {
			t.Fatalf("step %q (-want +got):\n%s", st.name, d)
		}
	}
}

func TestTrackerQueryAndChangesOnly(t *testing.T) {
	t.Parallel()
	q, err := query.Parse("sev:red")
	if err != nil {
		t.Fatal(err)
	}
	live := map[string]model.ConnPhase{"a": model.ConnLive}
	tr := NewTracker(q, true)
	got := brief(tr.Observe(snap(1, live, row("a", "n", "x", "v1", "v1", drift.SeverityOK), row("a", "n", "y", "main", "main", drift.SeverityRed, drift.DriftFloatingDeclared)), t0))
	if d := cmp.Diff([]string{"summary  total=1"}, got); d != "" {
		t.Fatalf("changes-only start counts matching rows only (-want +got):\n%s", d)
	}
	// x turns red (enters the filter), y turns ok (leaves it): both are
	// reported, since each matched on one side of its change.
	got = brief(tr.Observe(snap(2, live, row("a", "n", "x", "latest", "latest", drift.SeverityRed, drift.DriftFloatingDeclared),
		row("a", "n", "y", "v1", "v1", drift.SeverityOK), row("a", "n", "z", "v1", "v1", drift.SeverityOK)), t0))
	want := []string{"changed a/n/x ok,v1 -> red,latest", "changed a/n/y red,main -> ok,v1"}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
	// y changes again while outside the filter: not reported; nor is its deletion.
	got = brief(tr.Observe(snap(3, live, row("a", "n", "x", "latest", "latest", drift.SeverityRed, drift.DriftFloatingDeclared)), t0))
	if got != nil {
		t.Fatalf("rows outside the filter reported: %v", got)
	}
}

func TestFormatTextCleansClusterText(t *testing.T) {
	t.Parallel()
	before := VerdictOf(row("a", "n", "x", "v1", "v1", drift.SeverityOK))
	after := before
	after.RunningTag = "v2\x1b[2J\u202e"
	ev := Event{Time: t0, Event: KindChanged, Cluster: "a", Namespace: "n", App: "x\x07", Changed: before.Changes(after), Before: &before, After: &after}
	want := "2026-12-01T04:00:00Z changed  a/n/x\\x07 runningTag v1 → v2\\x1b[2J\\u202e"
	if got := FormatText(ev); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}
