package store

import (
	"slices"
	"sort"

	"github.com/hanzoai/driftboard/model"
)

// Change is one row of the store changed (upserted, deleted or marked
// offline) at a version.
type Change struct {
	Version uint64
	Key     model.Key
}

// rowJournal remembers which rows changed at which version, so a View can
// follow the store change by change instead of re-reading every row.
type rowJournal struct {
	entries []Change // append-only: published snapshots share the prefix
	from    uint64   // every change after this version is in entries
	min     int      // trim threshold floor (0: journalMin)
}

// journalMin is how many changes are kept at least: a View that fell further
// behind rebuilds from the rows, which costs about as much.
const journalMin = 1024

// add journals k at version v. Past about twice the fleet's size the older
// half goes into a fresh slice (never in place: snapshots share the old one).
func (j *rowJournal) add(v uint64, k model.Key, rows int) {
	j.entries = append(j.entries, Change{Version: v, Key: k})
	limit := j.min
	if limit == 0 {
		limit = journalMin
	}
	if len(j.entries) <= limit+2*rows {
		return
	}
	cut := len(j.entries) / 2
	// Keep a version whole: the View reads "everything after version x".
	for cut < len(j.entries) && j.entries[cut].Version == j.entries[cut-1].Version {
		cut++
	}
	j.from = j.entries[cut-1].Version
	j.entries = slices.Clone(j.entries[cut:])
}

// ChangesSince returns the rows changed after version v of the store origin
// (a key may repeat; shared: callers must not modify it), and false when the
// snapshot cannot tell: it was made by hand, v is from another store, or
// older than its journal. A view follows the store change by change with it.
func (s *Snapshot) ChangesSince(origin, v uint64) ([]Change, bool) {
	if s.store == 0 || origin != s.store || v < s.journalFrom || v > s.Version {
		return nil, false
	}
	i := sort.Search(len(s.journal), func(i int) bool { return s.journal[i].Version > v })
	return s.journal[i:], true
}
