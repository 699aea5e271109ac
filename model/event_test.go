package model

import (
	"testing"
	"time"
)

func TestMergeEvents(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 5, 0, 0, 0, time.UTC)
	in := []Event{
		{Object: "Pod a", Type: "Warning", Reason: "BackOff", Message: "restarting", Count: 3, Last: t0},
		{Object: "Deployment web", Type: "Normal", Reason: "ScalingReplicaSet", Message: "up to 2", Last: t0.Add(time.Minute)},
		{Object: "Pod a", Type: "Warning", Reason: "BackOff", Message: "restarting", Count: 2, Last: t0.Add(2 * time.Minute)},
		{Object: "Pod b", Type: "Warning", Reason: "BackOff", Message: "restarting", Count: 0, Last: t0.Add(-time.Minute)},
	}
	got := MergeEvents(in, 0)
	if len(got) != 3 {
		t.Fatalf("want 3 after de-dup, got %+v", got)
	}
	if got[0].Object != "Pod a" || got[0].Count != 5 || !got[0].Last.Equal(t0.Add(2*time.Minute)) {
		t.Errorf("newest first, counts summed, latest time: %+v", got[0])
	}
	if got[1].Object != "Deployment web" || got[2].Object != "Pod b" || got[2].Count != 1 {
		t.Errorf("order or missing count: %+v", got)
	}
	if got := MergeEvents(in, 2); len(got) != 2 {
		t.Errorf("limit 2: %d", len(got))
	}
}
