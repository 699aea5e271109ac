package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/modeltest"
)

// TestSummaryPendingIsNotOK: a row with no flag known yet because its
// workload is not listed counts as waiting, not ok, in the store and in
// Summarize; once built from its workload it counts as ok again.
func TestSummaryPendingIsNotOK(t *testing.T) {
	t.Parallel()
	s := New()
	pending := model.Build(modeltest.BaseApp(), modeltest.PendingWorkload(model.KindDeployment), modeltest.FoundRelease(), modeltest.T0)
	s.UpsertMany([]model.AppView{pending})
	sum := s.Snapshot().Summary
	if sum.WaitingOnWorkload != 1 || sum.ByDrift[drift.SeverityOK] != 0 {
		t.Errorf("store summary %+v: want 1 waiting on its workload, 0 ok", sum)
	}
	if got := Summarize(s.Snapshot().Rows()); got.WaitingOnWorkload != 1 || got.ByDrift[drift.SeverityOK] != 0 {
		t.Errorf("Summarize %+v: want 1 waiting on its workload, 0 ok", got)
	}
	s.Upsert(model.Build(modeltest.BaseApp(), modeltest.BaseWorkload(), modeltest.FoundRelease(), modeltest.T0))
	if sum := s.Snapshot().Summary; sum.WaitingOnWorkload != 0 || sum.ByDrift[drift.SeverityOK] != 1 {
		t.Errorf("after the sync %+v: want 1 ok", sum)
	}
}

func TestStoreCountsRowsWaitingOnRelease(t *testing.T) {
	t.Parallel()
	s := New()
	for i, st := range []model.ReleaseState{model.ReleasePending, model.ReleaseRateLimited, model.ReleaseFound, model.ReleaseOff} {
		a := modeltest.BaseApp()
		a.Name = string(rune('a' + i))
		s.Upsert(model.Build(a, modeltest.BaseWorkload(), model.Release{State: st}, modeltest.T0))
	}
	if got := s.Snapshot().Summary.WaitingOnRelease; got != 2 {
		t.Fatalf("WaitingOnRelease = %d, want 2 (pending, rate-limited)", got)
	}
	a := modeltest.BaseApp()
	a.Name = "a" // the pending row is read: one fewer waits
	s.Upsert(model.Build(a, modeltest.BaseWorkload(), modeltest.FoundRelease(), modeltest.T0))
	s.Delete(model.Key{Cluster: a.Cluster, Namespace: a.Namespace, Name: "b"})
	snap := s.Snapshot()
	if snap.Summary.WaitingOnRelease != 0 {
		t.Errorf("after the answers: WaitingOnRelease = %d, want 0", snap.Summary.WaitingOnRelease)
	}
	if diff := cmp.Diff(snap.Summary, Summarize(snap.Rows())); diff != "" {
		t.Errorf("store summary ≠ Summarize (-store +summarize):\n%s", diff)
	}
}
