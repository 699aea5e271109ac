package restart

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// DefaultRolloutTimeout bounds one rollout's follow when the Policy does
// not say: a longer rollout counts as failed (the board's single and set
// restarts, and restart --wait alike).
const DefaultRolloutTimeout = 10 * time.Minute

// sendTimeout bounds one check or patch, so a hung API server cannot hold
// a dialog or a slot of a set.
const sendTimeout = 30 * time.Second

// Policy is what the user's switches allow, the same for the board and the
// commands.
type Policy struct {
	ReadOnly         bool            // every context: --readonly or the config
	ReadOnlyContexts map[string]bool // contexts the config makes read-only
	RolloutTimeout   time.Duration   // one rollout's follow (0: DefaultRolloutTimeout)
}

// ReadOnlyRefusal is the refusal read-only mode gives on cluster ("": the
// switch for every context only), "" if none.
func (p Policy) ReadOnlyRefusal(cluster string) string { return p.readOnly(cluster) }

func (p Policy) readOnly(cluster string) string {
	switch {
	case p.ReadOnly:
		return model.ReadOnlyBlock("")
	case p.ReadOnlyContexts[cluster]:
		return model.ReadOnlyBlock(cluster)
	}
	return ""
}

func (p Policy) rolloutTimeout() time.Duration {
	if p.RolloutTimeout > 0 {
		return p.RolloutTimeout
	}
	return DefaultRolloutTimeout
}

// Confirmation is what a person gave for a restart: an answer typed (the
// board's dialog, a terminal prompt) or --yes given in advance.
type Confirmation struct {
	Answer string
	Yes    bool
	// ProductionNamed: the request itself named production (--env main or
	// a production namespace; a query with env:main). --yes stands for the
	// typed answer only then: driftboard never assumes production.
	ProductionNamed bool
}

// ConfirmError is a restart not confirmed; nothing was sent.
type ConfirmError struct{ Reason string }

func (e *ConfirmError) Error() string { return e.Reason }

// ConfirmOne checks a single restart's confirmation: the App's name typed
// in production, y elsewhere; --yes in production only when it was named.
func ConfirmOne(p model.RestartPlan, c Confirmation) error {
	switch {
	case c.Yes && p.MustType && !c.ProductionNamed:
		return &ConfirmError{Reason: fmt.Sprintf("%s is in production (%s/%s); --yes restarts production only when you name it: add --env main or write %s/%s",
			p.App, p.Namespace, p.App, p.Namespace, p.App)}
	case c.Yes:
		return nil
	case !p.Confirmed(c.Answer):
		if p.MustType {
			return &ConfirmError{Reason: "not confirmed: the typed name does not match " + p.App + "; nothing was changed"}
		}
		return &ConfirmError{Reason: "not confirmed; nothing was changed"}
	}
	return nil
}

// setProductionRefusal is why --yes does not restart a production row of a
// set whose query did not name production.
const setProductionRefusal = "production: a set restarts production only when the query names it (env:main), or when you type the confirmation"

// SetAnswer is what a person types to confirm a set of n allowed rows: the
// count, or "restart N apps" when any of them is production.
func SetAnswer(n int, production bool) string {
	if production {
		return "restart " + CountApps(n)
	}
	return strconv.Itoa(n)
}

// confirmSet checks a set's confirmation against its plan.
func confirmSet(p SetPlan, c Confirmation) error {
	if c.Yes || strings.TrimSpace(c.Answer) == p.Answer {
		return nil
	}
	return &ConfirmError{Reason: "type exactly " + strconv.Quote(p.Answer) + " to confirm; nothing was sent"}
}

// CountApps is "1 app", "2 apps".
func CountApps(n int) string {
	if n == 1 {
		return "1 app"
	}
	return strconv.Itoa(n) + " apps"
}
