package model

import (
	"slices"
	"sort"
)

// change is one row of the store changed (upserted, deleted or marked
// offline) at a version.
type change struct {
	version uint64
	key     Key
}

// rowJournal remembers which rows changed at which version, so a View can
// follow the store change by change instead of re-reading every row.
type rowJournal struct {
	entries []change // append-only: published snapshots share the prefix
	from    uint64   // every change after this version is in entries
	min     int      // trim threshold floor (0: journalMin)
}

// journalMin is how many changes are kept at least: a View that fell further
// behind rebuilds from the rows, which costs about as much.
const journalMin = 1024

// add journals k at version v. Past about twice the fleet's size the older
// half goes into a fresh slice (never in place: snapshots share the old one).
func (j *rowJournal) add(v uint64, k Key, rows int) {
	j.entries = append(j.entries, change{version: v, key: k})
	limit := j.min
	if limit == 0 {
		limit = journalMin
	}
	if len(j.entries) <= limit+2*rows {
		return
	}
	cut := len(j.entries) / 2
	// Keep a version whole: the View reads "everything after version x".
	for cut < len(j.entries) && j.entries[cut].version == j.entries[cut-1].version {
		cut++
	}
	j.from = j.entries[cut-1].version
	j.entries = slices.Clone(j.entries[cut:])
}

// changesSince returns the rows changed after version v (a key may repeat),
// and false when the snapshot cannot tell: it was made by hand, v is from
// another store, or older than its journal.
func (s *Snapshot) changesSince(store, v uint64) ([]change, bool) {
	if s.store == 0 || store != s.store || v < s.journalFrom || v > s.Version {
		return nil, false
	}
	i := sort.Search(len(s.journal), func(i int) bool { return s.journal[i].version > v })
	return s.journal[i:], true
}
