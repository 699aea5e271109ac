package store

import (
	"testing"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/modeltest"
)

// TestSummaryUnreadableIsNotOK: a row without flags whose workload this
// identity may not read has no running tag observed (un-rolled and
// floating-running unknown): the store and Summarize count it apart, not
// as ok; once its workload is read it counts as ok.
func TestSummaryUnreadableIsNotOK(t *testing.T) {
	t.Parallel()
	unreadable := &model.Workload{Kind: model.KindDeployment, Name: "iam", Unreadable: "deployments in hanzo: forbidden"}
	v := model.Build(modeltest.BaseApp(), unreadable, modeltest.FoundRelease(), modeltest.T0)
	if len(v.Drift.Flags) != 0 || !v.RunningUnknown() {
		t.Fatalf("flags %v, running unknown %v: want no flag and the running tag unknown", v.Drift.Flags, v.RunningUnknown())
	}
	s := New()
	s.UpsertMany([]model.AppView{v})
	sum := s.Snapshot().Summary
	if sum.UnreadableWorkload != 1 || sum.ByDrift[drift.SeverityOK] != 0 || sum.WaitingOnWorkload != 0 {
		t.Errorf("store summary %+v: want 1 unreadable, 0 ok, 0 waiting", sum)
	}
	if got := Summarize(s.Snapshot().Rows()); got.UnreadableWorkload != 1 || got.ByDrift[drift.SeverityOK] != 0 {
		t.Errorf("Summarize %+v: want 1 unreadable, 0 ok", got)
	}
	s.Upsert(model.Build(modeltest.BaseApp(), modeltest.BaseWorkload(), modeltest.FoundRelease(), modeltest.T0))
	if sum := s.Snapshot().Summary; sum.UnreadableWorkload != 0 || sum.ByDrift[drift.SeverityOK] != 1 {
		t.Errorf("once read %+v: want 1 ok", sum)
	}
}
