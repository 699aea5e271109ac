package restart

import "github.com/hanzoai/driftboard/model"

// fleetChecks are the checks a fleet makes, in its order; a dry run names
// the ones it did not reach as skipped.
var fleetChecks = []string{model.CheckRole, model.CheckClusterLive, model.CheckWorkload, model.CheckIssuer, model.CheckAccessReview}

// Checklist is every check of one restart with its outcome: the caller's
// own first (the login, the config's trust), then the use case's (read-only,
// the fleet's, the confirmation). A dry run prints it whole.
type Checklist []model.Check

// Checklist is c's checks, before the caller's own: read-only, the
// fleet's (those not reached, skipped) and the confirmation in.
func (c Checked) Checklist(policy Policy, in Confirmation) Checklist {
	l := Checklist{ReadOnlyCheck(policy, c.Key.Cluster)}
	seen := map[string]bool{model.CheckReadOnly: true}
	stopped := l[0].State != model.CheckPassed
	for _, ch := range c.Decision.Checks {
		if seen[ch.Name] {
			continue
		}
		seen[ch.Name] = true
		l = append(l, ch)
		stopped = stopped || ch.State != model.CheckPassed
	}
	if c.Plan.Blocked != "" && !seen[model.CheckWorkload] {
		l = append(l, model.Check{Name: model.CheckWorkload, State: model.CheckRefused, Detail: c.Plan.Blocked})
		seen[model.CheckWorkload], stopped = true, true
	}
	for _, name := range fleetChecks {
		if !seen[name] {
			l = append(l, model.Check{Name: name, State: model.CheckSkipped, Detail: name + ": not checked (an earlier check decides)"})
		}
	}
	if len(c.Decision.Checks) == 0 && !c.Decision.Allowed && !stopped && c.Decision.Reason != "" {
		// A fleet that gives only its reason (the demo, a fleet without
		// restarts): the reason is the outcome.
		l = append(l, model.Check{Name: model.CheckAccessReview, State: model.CheckRefused, Detail: c.Decision.Reason})
	}
	return append(l, ConfirmationCheck(c.Plan, in))
}

// ReadOnlyCheck is read-only mode's check on cluster ("": the switch for
// every context only).
func ReadOnlyCheck(p Policy, cluster string) model.Check {
	if why := p.readOnly(cluster); why != "" {
		return model.Check{Name: model.CheckReadOnly, State: model.CheckRefused, Detail: why}
	}
	return model.Check{Name: model.CheckReadOnly, State: model.CheckPassed, Detail: "not read-only"}
}

// ConfirmationCheck is what confirming p takes: --yes given for production
// that was not named is refused, as ConfirmOne refuses it.
func ConfirmationCheck(p model.RestartPlan, c Confirmation) model.Check {
	ch := model.Check{Name: model.CheckConfirmation, State: model.CheckPassed}
	switch {
	case c.Yes && p.MustType && !c.ProductionNamed:
		ch.State, ch.Detail = model.CheckRefused, ConfirmOne(p, c).Error()
	case p.MustType && c.Yes:
		ch.Detail = "production, named: --yes confirms"
	case p.MustType:
		ch.Detail = "production: confirmation needed, by typing the App's name " + p.App + " (or --yes with --env main)"
	case c.Yes:
		ch.Detail = "--yes confirms"
	default:
		ch.Detail = "confirmation needed: y (or --yes)"
	}
	return ch
}

// Prepend puts the caller's checks first.
func (l Checklist) Prepend(first ...model.Check) Checklist { return append(first, l...) }

// Refusal is the first refusal's reason, "" if none.
func (l Checklist) Refusal() string {
	for _, c := range l {
		if c.State == model.CheckRefused {
			return c.Detail
		}
	}
	return ""
}

// Unknown names the checks that could not be evaluated.
func (l Checklist) Unknown() []string {
	var names []string
	for _, c := range l {
		if c.State == model.CheckUnknown {
			names = append(names, c.Name)
		}
	}
	return names
}
