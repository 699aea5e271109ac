package store

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/modeltest"
)

// row builds a minimal row with the given severity, observed at modeltest.T0+minutes.
func row(cluster, ns, name string, sev drift.DriftSeverity, minutes int) model.AppView {
	return model.AppView{App: name, Cluster: cluster, Namespace: ns, ObservedAt: modeltest.T0.Add(time.Duration(minutes) * time.Minute),
		Drift: drift.Drift{Severity: sev, Flags: []drift.DriftFlag{}}, Endpoints: []string{}}
}

func keys(s *Snapshot) []string {
	out := []string{}
	for _, r := range s.Rows() {
		out = append(out, r.Key().String())
	}
	return out
}

func TestStoreOrderAndSummary(t *testing.T) {
	t.Parallel()
	s := New()
	empty := s.Snapshot()
	if diff := cmp.Diff(Summary{Total: 0, ByDrift: map[drift.DriftSeverity]int{"ok": 0, "yellow": 0, "red": 0}}, empty.Summary); diff != "" {
		t.Errorf("empty summary (-want +got):\n%s", diff)
	}
	if b, _ := json.Marshal(empty); string(b) != `{"version":0,"rows":[],"summary":{"total":0,"byDrift":{"ok":0,"red":0,"yellow":0},"waitingOnRelease":0},"clusters":[],"releases":{"off":false,"anonymous":false,"remaining":0,"limit":0,"starved":false},"takenAt":"0001-01-01T00:00:00Z"}` {
		t.Errorf("empty snapshot JSON = %s", b)
	}
	s.Upsert(row("b", "hanzo", "iam", drift.SeverityRed, 1))
	s.Upsert(row("a", "tenant-x", "api", drift.SeverityOK, 2))
	s.Upsert(row("a", "hanzo", "zeta", drift.SeverityYellow, 3))
	s.Upsert(row("a", "hanzo", "alpha", drift.SeverityYellow, 0))
	s.Upsert(row("a", "hanzo", "zeta", drift.SeverityOK, 4)) // replace
	s.Delete(model.Key{Cluster: "b", Namespace: "hanzo", Name: "iam"})
	s.Delete(model.Key{Cluster: "b", Namespace: "hanzo", Name: "nope"}) // absent: no-op
	snap := s.Snapshot()
	if diff := cmp.Diff([]string{"a/hanzo/alpha", "a/hanzo/zeta", "a/tenant-x/api"}, keys(snap)); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Summary{Total: 3, ByDrift: map[drift.DriftSeverity]int{"ok": 2, "yellow": 1, "red": 0},
		Verdicts: VerdictCounts{OK: 2, Yellow: 1}}, snap.Summary); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(snap.Summary, Summarize(snap.Rows())); diff != "" {
		t.Errorf("Summarize disagrees with the store (-store +summarize):\n%s", diff)
	}
	if snap.Version != 6 {
		t.Errorf("version = %d, want 6 (one per change)", snap.Version)
	}
	if !snap.TakenAt.Equal(modeltest.T0.Add(4 * time.Minute)) {
		t.Errorf("TakenAt = %v, want the newest observation", snap.TakenAt)
	}
}

func TestStoreSnapshotIsCachedAndImmutable(t *testing.T) {
	t.Parallel()
	s := New()
	v := row("a", "hanzo", "iam", drift.SeverityOK, 0)
	s.Upsert(v)
	v.Phase = "Mutated by caller"
	first := s.Snapshot()
	if s.Snapshot() != first {
		t.Error("an unchanged store rebuilt its snapshot")
	}
	if first.Rows()[0].Phase != "" {
		t.Error("Upsert kept the caller's value instead of a copy")
	}
	kept := first.Rows()[0]
	s.Upsert(row("a", "hanzo", "iam", drift.SeverityRed, 1))
	s.Upsert(row("a", "hanzo", "new", drift.SeverityRed, 1))
	s.SetOffline("a", true)
	second := s.Snapshot()
	if second == first || second.Version <= first.Version {
		t.Error("a changed store returned the old snapshot")
	}
	if first.Len() != 1 || first.Rows()[0] != kept || kept.Drift.Severity != drift.SeverityOK || kept.Offline {
		t.Errorf("an older snapshot changed under its reader: %+v", first.Rows())
	}
}

// "Since" comes from the cluster or is absent: the store keeps what Build
// set and never invents one from when it first saw the row.
func TestStoreDriftSince(t *testing.T) {
	t.Parallel()
	k := model.Key{Cluster: "a", Namespace: "hanzo", Name: "iam"}
	s := New()
	s.Upsert(row(k.Cluster, k.Namespace, k.Name, drift.SeverityRed, 5))
	if got := s.Snapshot().Rows()[0].DriftSince; got != nil {
		t.Errorf("drifting row without a known start: DriftSince = %v, want nil (not the time it was first seen)", got)
	}
	at := modeltest.T0.Add(-time.Hour)
	v := row(k.Cluster, k.Namespace, k.Name, drift.SeverityRed, 9)
	v.DriftSince = &at
	s.Upsert(v)
	if got := s.Snapshot().Rows()[0].DriftSince; got == nil || !got.Equal(at) {
		t.Errorf("DriftSince = %v, want Build's %v", got, at)
	}
	if b, _ := json.Marshal(row(k.Cluster, k.Namespace, k.Name, drift.SeverityRed, 1)); !strings.Contains(string(b), `"driftSince":null`) {
		t.Errorf("unknown DriftSince is not null in JSON: %s", b)
	}
}

func TestStoreStaleAndClusters(t *testing.T) {
	t.Parallel()
	s := New()
	for _, r := range []model.AppView{row("a", "hanzo", "x", "ok", 0), row("b", "hanzo", "x", "ok", 0), row("b", "tenant-z", "y", "ok", 0), row("c", "hanzo", "x", "ok", 0)} {
		s.Upsert(r)
	}
	before := s.Snapshot()
	s.SetOffline("b", true)
	s.Upsert(row("b", "hanzo", "late", "ok", 1)) // arrives while the cluster is stale
	stale := func(snap *Snapshot) []bool {
		out := []bool{}
		for _, r := range snap.Rows() {
			out = append(out, r.Offline)
		}
		return out
	}
	snap := s.Snapshot()
	if diff := cmp.Diff([]bool{false, true, true, true, false}, stale(snap)); diff != "" {
		t.Errorf("stale after SetOffline(b) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]bool{false, false, false, false}, stale(before)); diff != "" {
		t.Errorf("earlier snapshot mutated (-want +got):\n%s", diff)
	}
	s.SetOffline("b", false)
	if diff := cmp.Diff([]bool{false, false, false, false, false}, stale(s.Snapshot())); diff != "" {
		t.Errorf("stale after recovery (-want +got):\n%s", diff)
	}
	v := s.Snapshot().Version
	s.SetOffline("nope", false)
	if s.Snapshot().Version != v {
		t.Error("SetOffline on an unknown cluster changed the version")
	}

	cs := []model.ClusterState{{Name: "a", Phase: model.ConnLive, Since: modeltest.T0.Add(time.Hour), Notices: []string{"n"}}}
	s.SetClusters(cs)
	cs[0].Notices[0] = "mutated"
	got := s.Snapshot()
	if diff := cmp.Diff([]model.ClusterState{{Name: "a", Phase: model.ConnLive, Since: modeltest.T0.Add(time.Hour), Notices: []string{"n"}}}, got.Clusters); diff != "" {
		t.Errorf("clusters (-want +got):\n%s", diff)
	}
	if !got.TakenAt.Equal(modeltest.T0.Add(time.Hour)) {
		t.Errorf("TakenAt = %v, want the cluster's newer Since", got.TakenAt)
	}
}

func TestStoreConcurrentReaders(t *testing.T) {
	t.Parallel()
	s := New()
	var wg sync.WaitGroup
	done := make(chan struct{})
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				snap := s.Snapshot()
				if snap.Summary.Total != snap.Len() {
					t.Errorf("torn snapshot: total %d, rows %d", snap.Summary.Total, snap.Len())
					return
				}
				for i := 1; i < snap.Len(); i++ {
					if snap.Rows()[i-1].Key().Compare(snap.Rows()[i].Key()) >= 0 {
						t.Errorf("snapshot not sorted at %d", i)
						return
					}
				}
			}
		})
	}
	// The writer churns; a plain map replays the same steps, and the final
	// snapshot must agree with it (the deletes hit rows that exist).
	want := map[model.Key]bool{}
	name := func(i int) string { return string(rune('a'+i%26)) + string(rune('a'+i/26%26)) }
	offline := false
	for i := range 2000 {
		s.Upsert(row("c", "hanzo", name(i), drift.SeverityYellow, i))
		want[model.Key{Cluster: "c", Namespace: "hanzo", Name: name(i)}] = true
		if i%7 == 0 && i > 0 {
			s.Delete(model.Key{Cluster: "c", Namespace: "hanzo", Name: name(i - 1)})
			delete(want, model.Key{Cluster: "c", Namespace: "hanzo", Name: name(i - 1)})
			offline = i%2 == 0
			s.SetOffline("c", offline)
		}
	}
	close(done)
	wg.Wait()
	snap := s.Snapshot()
	if snap.Len() != len(want) || snap.Summary.Total != len(want) || snap.Summary.ByDrift[drift.SeverityYellow] != len(want) {
		t.Fatalf("final snapshot: %d rows, summary %+v; want %d yellow rows", snap.Len(), snap.Summary, len(want))
	}
	for _, r := range snap.Rows() {
		if !want[r.Key()] || r.Offline != offline {
			t.Errorf("row %s: present %v offline %v; want present, offline %v", r.Key(), want[r.Key()], r.Offline, offline)
		}
	}
}
