package model

// CheckState is the outcome of one restart check.
type CheckState string

const (
	CheckPassed  CheckState = "passed"
	CheckRefused CheckState = "refused"
	// CheckUnknown: the check could not be evaluated (an API error, a
	// cluster not live), so nothing can be said either way.
	CheckUnknown CheckState = "unknown"
	// CheckSkipped: not evaluated because an earlier check already refuses
	// or what it needs (a login) is missing; that refusal is the answer.
	CheckSkipped CheckState = "skipped"
)

// Check is one named check of a restart and its outcome, in a sentence.
// A dry run lists them all, so a refusal is seen among what did pass.
type Check struct {
	Name   string     `json:"check"`
	State  CheckState `json:"state"`
	Detail string     `json:"detail"`
}

// The checks' names, in the order a dry run lists them.
const (
	CheckLogin        = "login"
	CheckReadOnly     = "read-only"
	CheckIAMCluster   = "iam-cluster"
	CheckRole         = "role"
	CheckClusterLive  = "cluster-live"
	CheckWorkload     = "workload"
	CheckIssuer       = "issuer"
	CheckAccessReview = "access-review"
	CheckConfirmation = "confirmation"
)

// Line is the check as a checklist line: ✓ passed, ✗ refused, ? unknown,
// - skipped.
func (c Check) Line() string {
	switch c.State {
	case CheckPassed:
		return "✓ " + c.Detail
	case CheckRefused:
		return "✗ " + c.Detail
	case CheckUnknown:
		return "? unknown: " + c.Detail
	}
	return "- " + c.Detail
}
