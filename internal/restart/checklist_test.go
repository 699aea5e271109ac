package restart

import (
	"slices"
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/model"
)

// A dry run's checklist: every check in order, the ones a refusal kept the
// fleet from reaching named as skipped, a check that could not be
// evaluated apart from a refusal, and read-only and the confirmation from
// the use case's own rules.
func TestChecklist(t *testing.T) {
	key := model.Key{Cluster: "test", Namespace: "hanzo", Name: "iam"}
	plan := model.RestartPlan{App: "iam", Namespace: "hanzo", Cluster: "test", MustType: true}
	refusedAtIssuer := Checked{Key: key, Plan: plan, Decision: model.Decision{Reason: "no", Checks: []model.Check{
		{Name: model.CheckRole, State: model.CheckPassed, Detail: "SuperAdmin"},
		{Name: model.CheckClusterLive, State: model.CheckPassed, Detail: "live"},
		{Name: model.CheckWorkload, State: model.CheckPassed, Detail: "ok"},
		{Name: model.CheckIssuer, State: model.CheckRefused, Detail: "401: does not trust the issuer"},
	}}}
	l := refusedAtIssuer.Checklist(Policy{}, Confirmation{})
	var names []string
	for _, c := range l {
		names = append(names, c.Name+"="+string(c.State))
	}
	want := []string{"read-only=passed", "role=passed", "cluster-live=passed", "workload=passed", "issuer=refused",
		"access-review=skipped", "confirmation=passed"}
	if !slices.Equal(names, want) {
		t.Errorf("checklist %v, want %v", names, want)
	}
	if got := l.Refusal(); got != "401: does not trust the issuer" {
		t.Errorf("Refusal = %q", got)
	}
	if len(l.Unknown()) != 0 {
		t.Errorf("Unknown = %v for a refusal", l.Unknown())
	}
	if c := l[len(l)-1]; !strings.Contains(c.Detail, "typing the App's name iam") {
		t.Errorf("production's confirmation: %q", c.Detail)
	}

	syncing := Checked{Key: key, Plan: plan, Decision: model.Decision{Reason: "syncing", Checks: []model.Check{
		{Name: model.CheckClusterLive, State: model.CheckUnknown, Detail: "still syncing"}}}}
	if got := syncing.Checklist(Policy{}, Confirmation{}).Unknown(); !slices.Equal(got, []string{model.CheckClusterLive}) {
		t.Errorf("Unknown = %v, want cluster-live", got)
	}

	// Read-only for this context comes first; --yes for production not
	// named is the confirmation's refusal, as ConfirmOne's.
	ro := refusedAtIssuer.Checklist(Policy{ReadOnlyContexts: map[string]bool{"test": true}}, Confirmation{Yes: true})
	if ro[0].State != model.CheckRefused || !strings.Contains(ro.Refusal(), "read-only") {
		t.Errorf("read-only: %+v", ro[0])
	}
	if c := ro[len(ro)-1]; c.State != model.CheckRefused || !strings.Contains(c.Detail, "--yes restarts production only when you name it") {
		t.Errorf("--yes for production not named: %+v", c)
	}

	// A row the plan blocks never reaches the fleet: the workload says why.
	blocked := Checked{Key: key, Plan: model.RestartPlan{App: "iam", Blocked: "no workload"}, Decision: model.Decision{Reason: "no workload"}}
	if got := blocked.Checklist(Policy{}, Confirmation{}).Refusal(); got != "no workload" {
		t.Errorf("blocked: Refusal = %q", got)
	}
}
