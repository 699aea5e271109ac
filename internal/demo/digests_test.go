package demo

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
)

// The detail's registry truth on the demo path: the real kube.Fleet lists
// the simulated pods (ownerReferences, imageIDs) and the demo's release
// source gives the tag's digest; a floating tag moved since its pods pulled
// it shows "running digest ≠ tag digest", the rest agree.
func TestFloatingTagShowsDigestDrift(t *testing.T) {
	clock := time.Date(2026, 11, 30, 9, 41, 0, 0, time.UTC)
	d, snap := startDemo(t, Options{Seed: 1, Speed: 1, Now: func() time.Time { return clock }})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var differ, agree, floating int
	for _, r := range snap.Rows() {
		// Declared and running the same floating tag: a tag comparison sees nothing move.
		if !hasFlag(r, drift.DriftFloatingRunning) || r.DeclaredTag != r.RunningTag || !r.Workload.Found || r.Workload.Available == 0 {
			continue
		}
		floating++
		read, err := d.Fleet().RunningDigests(ctx, r.Key())
		running := read.Digests
		if err != nil || len(running) == 0 {
			t.Errorf("%s: running digests %q, %v", r.Key(), running, err)
			continue
		}
		if r.Release.TagDigest == "" {
			t.Errorf("%s: no tag digest (release %+v)", r.Key(), r.Release)
			continue
		}
		refs := make([]string, len(running))
		for i, dg := range running {
			refs[i] = "@" + dg
		}
		switch note := model.CheckDigests(r.Release.TagDigest, refs).Note(); {
		case strings.Contains(note, "running digest ≠ tag digest"):
			differ++
		case note == "":
			agree++
		default:
			t.Errorf("%s: note %q", r.Key(), note)
		}
	}
	t.Logf("floating-tag apps with pods: %d; digest drift %d, agreeing %d", floating, differ, agree)
	if differ == 0 {
		t.Errorf("no floating-tag app shows running digest ≠ tag digest (of %d)", floating)
	}
	if floating >= 2 && agree == 0 {
		t.Errorf("every floating-tag app shows digest drift; the demo should show both verdicts")
	}
}

func hasFlag(r *model.AppView, k drift.DriftKind) bool {
	for _, f := range r.Drift.Flags {
		if f.Kind == k {
			return true
		}
	}
	return false
}
