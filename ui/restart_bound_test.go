package ui

import (
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// The confirm carries what the dialog showed: the binding of its check goes
// with the restart, so the use case can refuse when any part differs.
func TestConfirmCarriesTheDialogsBinding(t *testing.T) {
	r := allowed()
	r.decision.Bound = model.Binding{UID: "d1-OLD", Actor: "iam:u-alice", Server: "https://prod.example:6443"}
	r.decision.Actor = &model.Actor{Username: "iam:u-alice"}
	m, _ := newTestModel(t, r, orgAdmin(), Options{}, 120, 30)
	selectApp(t, m, "explorer")
	press(m, "r")
	if v := dialogText(m); !strings.Contains(v, "as iam:u-alice") || !strings.Contains(v, "API server https://prod.example:6443") {
		t.Fatalf("the dialog does not show who and where:\n%s", v)
	}
	press(m, "y")
	if len(r.bounds) != 1 || r.bounds[0] != r.decision.Bound {
		t.Fatalf("restart sent with bindings %+v, want the dialog's %+v", r.bounds, r.decision.Bound)
	}
}

// A fleet replaced under an open dialog (a login change reopens the
// clusters) closes it, saying why; nothing is sent.
func TestDialogsCloseWhenTheFleetIsReplaced(t *testing.T) {
	for _, c := range []struct {
		name string
		open func(m *Model)
	}{
		{"single", func(m *Model) { selectApp(t, m, "explorer"); press(m, "r") }},
		{"set", func(m *Model) { selectApp(t, m, "explorer"); press(m, "space", "R") }},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := allowed()
			m, src := newTestModel(t, r, orgAdmin(), Options{}, 120, 30)
			c.open(m)
			if m.dialogs.Top() == nil {
				t.Fatal("no dialog open")
			}
			m.Update(snapshotMsg{src.Snapshot()}) // the same fleet: stays open
			if m.dialogs.Top() == nil {
				t.Fatal("a snapshot of the same fleet closed the dialog")
			}
			src.Store = store.New() // the reopened fleet
			src.upsert(fleet()...)
			m.Update(snapshotMsg{src.Snapshot()})
			if m.dialogs.Top() != nil || !strings.Contains(m.status.text, "the login changed") {
				t.Fatalf("dialog %T still open, status %q", m.dialogs.Top(), m.status.text)
			}
			press(m, "y")
			if r.restartCount() != 0 {
				t.Fatal("a restart was sent from a closed dialog")
			}
		})
	}
}
