package model

// WorkloadPresence is which fact about a row's workload a view shows, decided
// in one order for every view: a found workload; else unreadable (forbidden
// is not missing); else pending (not listed yet is not missing); else none
// by design (the role makes none); else missing.
type WorkloadPresence uint8

const (
	WorkloadFound WorkloadPresence = iota
	WorkloadUnreadable
	WorkloadPending
	WorkloadNoneByDesign
	WorkloadMissing
)

// Presence is w's WorkloadPresence.
func (w WorkloadView) Presence() WorkloadPresence {
	switch {
	case w.Found:
		return WorkloadFound
	case w.Unreadable != "":
		return WorkloadUnreadable
	case w.Pending != "":
		return WorkloadPending
	case w.None != "":
		return WorkloadNoneByDesign
	}
	return WorkloadMissing
}
