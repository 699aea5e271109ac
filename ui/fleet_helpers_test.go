package ui

import "github.com/hanzoai/driftboard/internal/restart"

// actions is a Fleet's source side but its rows: what a test's fake
// scripts (the restart use case's Fleet and the reads).
type actions interface {
	restart.Fleet
	DigestReader
	EventWatcher
	LogReader
	YAMLReader
}

// testFleet is a test's Fleet from its parts: the rows from Source, the
// reads and the cluster side of restarts from actions, and the restart use
// case over those actions, as cli's composition builds it.
type testFleet struct {
	Source
	actions
	Restarter
	Promoter
}

// fleetOf puts a test's parts together; a nil part is not available.
func fleetOf(src Source, a actions) Fleet { return fleetUnder(src, a, restart.Policy{}) }

// fleetUnder is fleetOf with the restart use case under p.
func fleetUnder(src Source, a actions, p restart.Policy) Fleet {
	if src == nil {
		src = noFleet{}
	}
	if a == nil {
		a = noFleet{}
	}
	return testFleet{src, a, restart.New(a, p), NoPromotions{Why: "a test's fleet"}}
}

// storeOf is the fixture store behind a test's model.
func storeOf(m *Model) *storeSource { return m.fleet.(testFleet).Source.(*storeSource) }
