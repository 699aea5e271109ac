package model

import "testing"

// The one order of a row's workload facts; the combinations Build never
// makes pin the order itself, which every view follows.
func TestWorkloadPresenceOrder(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		w    WorkloadView
		want WorkloadPresence
	}{
		{"found wins", WorkloadView{Found: true, Unreadable: "forbidden", Pending: "syncing", None: "delegated"}, WorkloadFound},
		{"forbidden is not missing", WorkloadView{Unreadable: "forbidden", Pending: "syncing", None: "delegated"}, WorkloadUnreadable},
		{"not listed yet is not missing", WorkloadView{Pending: "syncing", None: "delegated"}, WorkloadPending},
		{"none by design", WorkloadView{None: "delegated"}, WorkloadNoneByDesign},
		{"missing", WorkloadView{Kind: KindDeployment, Name: "iam"}, WorkloadMissing},
	} {
		if got := c.w.Presence(); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}
