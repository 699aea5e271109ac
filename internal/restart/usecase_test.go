package restart

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// recorder is a Fleet that allows every check, binding it to the row's
// name, and records what each patch was bound to. Its rollouts end at once
// unless hang is set. The fleet's own rules are tested against a real API
// server in kube; this is the policy around them.
type recorder struct {
	mu      sync.Mutex
	checks  int
	patched map[model.Key]model.Binding
	hang    bool
}

func (f *recorder) CheckRestart(_ context.Context, k model.Key) model.Decision {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.checks++
	return model.Decision{Allowed: true, Bound: model.Binding{UID: "uid-" + k.Name, Actor: "iam:u-alice", Server: "https://" + k.Cluster}}
}

func (f *recorder) RestartWith(_ context.Context, k model.Key, req Request) (Result, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.patched == nil {
		f.patched = map[model.Key]model.Binding{}
	}
	f.patched[k] = req.Bound
	return Result{Name: k.Name, By: req.Bound.Actor}, nil
}

func (f *recorder) WaitRollout(ctx context.Context, _ model.Key, _ func(model.WorkloadView)) error {
	if f.hang {
		<-ctx.Done()
		return ctx.Err()
	}
	return nil
}

func row(cluster, ns, name string, env model.Env) *model.AppView {
	return &model.AppView{Cluster: cluster, Namespace: ns, App: name, Env: env,
		Workload: model.WorkloadView{Kind: model.KindDeployment, Name: name, Found: true}}
}

// Read-only, everywhere or on one context, refuses before the fleet is
// asked, and again at the send.
func TestReadOnlyGlobalAndPerContext(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		policy Policy
		want   string
	}{
		{"global", Policy{ReadOnly: true}, "restarts are switched off"},
		{"per context", Policy{ReadOnlyContexts: map[string]bool{"prod-eu": true}}, "context prod-eu is read-only"},
	} {
		f := &recorder{}
		uc := New(f, c.policy)
		r := row("prod-eu", "hanzo-testnet", "iam", model.EnvTest)
		chk, err := uc.Check(ctx, CheckInput{Row: r})
		var refused *RefusedError
		if !errors.As(err, &refused) || !strings.Contains(refused.Reason, c.want) || f.checks != 0 {
			t.Errorf("%s: check %v (fleet asked %d times), want a refusal saying %q", c.name, err, f.checks, c.want)
		}
		// A check made before the switch (or elsewhere) does not lift it.
		chk.Decision = model.Decision{Allowed: true}
		if _, err := uc.Restart(ctx, Input{Checked: chk, Confirm: Confirmation{Answer: "y"}}); !errors.As(err, &refused) || len(f.patched) != 0 {
			t.Errorf("%s: restart %v, patched %v", c.name, err, f.patched)
		}
		plan := PlanSet([]Checked{chk}, Confirmation{Yes: true})
		if out, err := uc.RestartSet(ctx, SetInput{Plan: plan, Confirm: Confirmation{Yes: true}, MaxParallel: 1}); !errors.Is(err, ErrIncomplete) || out.Summary.Failed != 1 || len(f.patched) != 0 {
			t.Errorf("%s: set %+v %v, patched %v", c.name, out.Summary, err, f.patched)
		}
	}
	other := New(&recorder{}, Policy{ReadOnlyContexts: map[string]bool{"prod-eu": true}})
	if _, err := other.Check(ctx, CheckInput{Row: row("prod-us", "hanzo-testnet", "iam", model.EnvTest)}); err != nil {
		t.Errorf("another context is not read-only: %v", err)
	}
}

// One confirmation policy: the typed answer for a person, --yes in advance
// only where production was named; a set's answer names its size.
func TestConfirmationPolicy(t *testing.T) {
	prod := model.PlanRestart(row("prod", "hanzo", "iam", model.EnvMain))
	test := model.PlanRestart(row("prod", "hanzo-testnet", "iam", model.EnvTest))
	for _, c := range []struct {
		name string
		plan model.RestartPlan
		c    Confirmation
		ok   bool
	}{
		{"y in test", test, Confirmation{Answer: "y\n"}, true},
		{"nothing in test", test, Confirmation{Answer: ""}, false},
		{"y in production", prod, Confirmation{Answer: "y"}, false},
		{"the name in production", prod, Confirmation{Answer: "iam\n"}, true},
		{"--yes in test", test, Confirmation{Yes: true}, true},
		{"--yes in production, not named", prod, Confirmation{Yes: true}, false},
		{"--yes in production, named", prod, Confirmation{Yes: true, ProductionNamed: true}, true},
	} {
		if err := ConfirmOne(c.plan, c.c); (err == nil) != c.ok {
			t.Errorf("%s: %v, want ok=%v", c.name, err, c.ok)
		}
	}

	uc := New(&recorder{}, Policy{})
	var checks []Checked
	for _, r := range []*model.AppView{row("prod", "hanzo", "iam", model.EnvMain), row("prod", "hanzo-testnet", "kms", model.EnvTest)} {
		c, err := uc.Check(context.Background(), CheckInput{Row: r})
		if err != nil {
			t.Fatal(err)
		}
		checks = append(checks, c)
	}
	typed := PlanSet(checks, Confirmation{})
	if len(typed.Allowed) != 2 || typed.Answer != "restart 2 apps" {
		t.Errorf("typed: allowed %v answer %q, want both and %q", typed.Allowed, typed.Answer, "restart 2 apps")
	}
	yes := PlanSet(checks, Confirmation{Yes: true})
	if len(yes.Allowed) != 1 || !strings.Contains(yes.Refused[checks[0].Key], "env:main") || yes.Answer != "1" {
		t.Errorf("--yes, production not named: allowed %v refused %v answer %q", yes.Allowed, yes.Refused, yes.Answer)
	}
	if named := PlanSet(checks, Confirmation{Yes: true, ProductionNamed: true}); len(named.Allowed) != 2 {
		t.Errorf("--yes, production named: allowed %v", named.Allowed)
	}
	f := &recorder{}
	if _, err := New(f, Policy{}).RestartSet(context.Background(), SetInput{Plan: typed, Confirm: Confirmation{Answer: "2"}, MaxParallel: 2}); err == nil || len(f.patched) != 0 {
		t.Errorf("a set with production confirmed by its count: %v, patched %v", err, f.patched)
	}
}

// Each restart of a set is bound to its own row's check.
func TestSetRestartsAreBoundToTheirChecks(t *testing.T) {
	f := &recorder{}
	uc := New(f, Policy{})
	var checks []Checked
	for _, n := range []string{"a", "b", "c"} {
		c, err := uc.Check(context.Background(), CheckInput{Row: row("prod", "hanzo-testnet", n, model.EnvTest)})
		if err != nil {
			t.Fatal(err)
		}
		checks = append(checks, c)
	}
	plan := PlanSet(checks, Confirmation{})
	var done []string
	out, err := uc.RestartSet(context.Background(), SetInput{Plan: plan, Confirm: Confirmation{Answer: " 3 "}, MaxParallel: 2, Follow: true,
		Report: func(u Update) {
			if u.Status == Done {
				done = append(done, u.Result.Name+" by "+u.Result.By)
			}
		}})
	if err != nil || out.Summary.Done != 3 || len(done) != 3 {
		t.Fatalf("set: %+v %v, done %v", out.Summary, err, done)
	}
	for _, c := range checks {
		if got := f.patched[c.Key]; got != c.Decision.Bound || got.UID != "uid-"+c.Key.Name {
			t.Errorf("%s patched bound to %+v, want its own check's %+v", c.Key.Name, got, c.Decision.Bound)
		}
	}
}

// The rollout follow has one timeout, the policy's; the parent's own end
// is not reported as it.
func TestFollowHasOneTimeout(t *testing.T) {
	k := model.Key{Cluster: "prod", Namespace: "hanzo", Name: "iam"}
	uc := New(&recorder{hang: true}, Policy{RolloutTimeout: 30 * time.Millisecond})
	_, err := uc.Follow(context.Background(), FollowInput{Key: k})
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "rollout of hanzo/iam not complete after 30ms") {
		t.Errorf("follow: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := uc.Follow(ctx, FollowInput{Key: k}); !errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "not complete after") {
		t.Errorf("cancelled follow: %v", err)
	}
	if d := New(&recorder{}, Policy{}).policy.rolloutTimeout(); d != DefaultRolloutTimeout {
		t.Errorf("default rollout timeout %s", d)
	}
}
