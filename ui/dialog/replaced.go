package ui

// fleetReplacedReason closes the restart dialogs that were asking when the
// board's fleet was reopened (a login change): what they showed — who acts,
// the workload, the API server — was checked on the fleet that is gone.
const fleetReplacedReason = "the clusters were reopened (the login changed): the restart dialog was closed and nothing was sent; open it again"

// closeUnsentRestarts closes every restart dialog that has not sent
// anything yet. One sending, or a set running, is left to the use case: a
// restart bound to the old fleet's check is refused at the patch.
func (m *Model) closeUnsentRestarts() {
	closed := false
	for _, d := range append(dialogStack(nil), m.dialogs...) {
		switch d := d.(type) {
		case *confirmDialog:
			if d.phase == confirmSending {
				continue
			}
		case *setRestartDialog:
			if d.phase != setChecking && d.phase != setAsk {
				continue
			}
		default:
			continue
		}
		m.dialogs.remove(d)
		closed = true
	}
	if closed {
		m.status = statusLine{text: fleetReplacedReason, bad: true}
	}
}
