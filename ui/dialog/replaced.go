package dialog

// FleetReplacedReason is why the restart dialogs that were asking closed
// when the board's fleet was reopened (a login change): what they showed —
// who acts, the workload, the API server — was checked on the fleet that is
// gone.
const FleetReplacedReason = "the clusters were reopened (the login changed): the restart dialog was closed and nothing was sent; open it again"

// CloseUnsentRestarts closes every restart dialog that has not sent
// anything yet, and reports whether it closed one. One sending, or a set
// running, is left to the use case: a restart bound to the old fleet's
// check is refused at the patch.
func (s *Stack) CloseUnsentRestarts() bool {
	closed := false
	for _, d := range append(Stack(nil), *s...) {
		switch d := d.(type) {
		case *Confirm:
			if d.phase == ConfirmSending {
				continue
			}
		case *SetRestart:
			if d.phase != SetChecking && d.phase != SetAsk {
				continue
			}
		default:
			continue
		}
		s.Remove(d)
		closed = true
	}
	return closed
}
