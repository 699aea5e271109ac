package restart

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/hanzoai/driftboard/model"
)

// cannotFollow patches but cannot follow a rollout (a source without
// rollouts answers not available).
type cannotFollow struct{ *recorder }

func (cannotFollow) WaitRollout(context.Context, model.Key, func(model.WorkloadView)) error {
	return model.NotAvailable("rollouts", "a test's source")
}

// A set over a fleet that cannot follow rollouts ends each slot with its
// accepted patch, saying why, instead of counting it failed.
func TestSetWithoutRolloutFollowCountsThePatch(t *testing.T) {
	uc := New(cannotFollow{&recorder{}}, Policy{})
	var checks []Checked
	for _, n := range []string{"a", "b"} {
		c, err := uc.Check(context.Background(), CheckInput{Row: row("prod", "hanzo-testnet", n, model.EnvTest)})
		if err != nil {
			t.Fatal(err)
		}
		checks = append(checks, c)
	}
	var mu sync.Mutex
	var notes []string
	out, err := uc.RestartSet(context.Background(), SetInput{Plan: PlanSet(checks, Confirmation{}), Confirm: Confirmation{Answer: "2"},
		MaxParallel: 2, Follow: true, Report: func(u Update) { mu.Lock(); notes = append(notes, u.Detail); mu.Unlock() }})
	if err != nil || out.Summary.Done != 2 || out.Summary.Failed != 0 {
		t.Fatalf("set: %+v %v", out.Summary, err)
	}
	if all := strings.Join(notes, "; "); !strings.Contains(all, "rollouts: not available from this source (a test's source)") {
		t.Errorf("notes %q do not say why the rollouts were not followed", all)
	}
}
