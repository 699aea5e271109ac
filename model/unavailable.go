package model

import "errors"

// NotAvailableError is what a fleet answers for a capability its source
// does not offer (no restarts, no logs, no YAML…), with the reason, so the
// board says so instead of showing nothing.
type NotAvailableError struct {
	What string // the capability, e.g. "YAML"
	Why  string // the reason, e.g. "the board has no fleet"
}

func (e *NotAvailableError) Error() string {
	return e.What + ": not available from this source (" + e.Why + ")"
}

// NotAvailable is a *NotAvailableError.
func NotAvailable(what, why string) error { return &NotAvailableError{What: what, Why: why} }

// IsNotAvailable reports whether err is, or wraps, a NotAvailableError.
func IsNotAvailable(err error) bool {
	var na *NotAvailableError
	return errors.As(err, &na)
}
