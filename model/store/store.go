// Package store is the fleet: one row per App, written by one writer (the
// watches) and read by many (the board, the commands) through immutable
// snapshots that cost O(1) to take, with the counts the header shows and
// the journal a view follows change by change.
package store

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
)

// Snapshot is an immutable view of the fleet. Its rows (Len, All, Find,
// Rows) are sorted by Key and never mutated after publication, so a
// snapshot may be shared freely.
type Snapshot struct {
	Version  uint64               `json:"version"`
	Summary  Summary              `json:"summary"`
	Clusters []model.ClusterState `json:"clusters"`
	Releases model.ReleaseChecks  `json:"releases"`
	TakenAt  time.Time            `json:"takenAt"` // newest observation it contains (the store has no clock)

	tree *rowTree  // a store's rows (a copy-on-write copy); nil when made by hand
	list *lazyRows // the rows as a slice, made on first use

	// The rows changed since journalFrom, for a View to follow the store
	// change by change; shared with the store, which only ever appends.
	store       uint64 // which store took it (a reconnect brings a new one)
	journal     []Change
	journalFrom uint64
}

// Origin names the store that took the snapshot: a fleet opened anew (a
// reconnect after a login change) takes its snapshots from a new store, so a
// change of origin says the fleet was replaced. 0 for a snapshot made by hand.
func (s *Snapshot) Origin() uint64 { return s.store }

// Store is the fleet: one row per App, kept sorted by Key. One writer and many
// readers may use it concurrently. Rows are replaced, never mutated.
type Store struct {
	mu       sync.Mutex
	rows     *rowTree          // sorted by Key; snapshots hold copy-on-write copies
	counts   [driftBuckets]int // the design's summary (ByDrift and the rows apart from it), by driftBucket
	verdicts VerdictCounts
	waiting  int // rows waiting on a release check
	releases model.ReleaseChecks
	offline  map[string]bool // clusters whose watch is down
	clusters []model.ClusterState
	version  uint64
	latest   time.Time
	snap     atomic.Pointer[Snapshot] // nil when something changed since the last one
	// byDrift is the last snapshot's Summary.ByDrift, for byDriftOf (counts
	// by severity): snapshots share it while those stay the same (it is
	// never written once published).
	byDrift   map[drift.DriftSeverity]int
	byDriftOf [3]int
	id        uint64
	journal   rowJournal
}

var storeIDs atomic.Uint64

// New returns an empty store.
func New() *Store {
	return &Store{rows: newRowTree(), offline: map[string]bool{}, id: storeIDs.Add(1)}
}

// NewTrimming returns an empty store whose journal keeps at least floor
// changes (New's keeps journalMin): a small floor trims within a few
// changes, for tests of a view that falls behind the journal.
func NewTrimming(floor int) *Store {
	s := New()
	s.journal.min = max(floor, 1)
	return s
}

func (s *Store) uncount(v *model.AppView) {
	s.counts[driftBucketOf(v)]--
	s.verdicts.add(v.Verdict(), -1)
	if v.WaitsOnRelease() {
		s.waiting--
	}
}

// SetReleaseChecks records the release reader's state for the header.
func (s *Store) SetReleaseChecks(rc model.ReleaseChecks) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.releases == rc {
		return
	}
	s.releases = rc
	s.changed()
}

func (s *Store) changed() {
	s.version++
	s.snap.Store(nil)
}

// changedRow journals a row change under the version changed() is about to give.
func (s *Store) changedRow(k model.Key) { s.journal.add(s.version+1, k, s.rows.Len()) }

// put stores row in place of the one with its key, if any, and counts it.
func (s *Store) put(row *model.AppView) {
	if old, replaced := s.rows.Set(&rowItem{key: row.Key(), v: row}); replaced {
		s.uncount(old.v)
	}
	s.counts[driftBucketOf(row)]++
	s.verdicts.add(row.Verdict(), 1)
	if row.WaitsOnRelease() {
		s.waiting++
	}
	if row.ObservedAt.After(s.latest) {
		s.latest = row.ObservedAt
	}
}

// Upsert stores a copy of v. A row of a cluster marked offline is stored
// offline. DriftSince is Build's, from the cluster: the store never
// invents it from when it first saw the row.
func (s *Store) Upsert(v model.AppView) {
	s.mu.Lock()
	defer s.mu.Unlock()
	row := &v
	if s.offline[row.Cluster] {
		row.Offline = true
	}
	s.put(row)
	s.changedRow(row.Key())
	s.changed()
}

// Delete removes the row with key k, if any.
func (s *Store) Delete(k model.Key) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old, found := s.rows.Delete(&rowItem{key: k})
	if !found {
		return
	}
	s.uncount(old.v)
	s.changedRow(k)
	s.changed()
}

// SetOffline marks every row of cluster offline (its watch is down) or live
// again. Affected rows are copied, never mutated. ("Stale" is only the drift
// flag: a newer release exists.)
func (s *Store) SetOffline(cluster string, offline bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if offline {
		s.offline[cluster] = true
	} else {
		delete(s.offline, cluster)
	}
	var flip []*model.AppView // rows change after the scan: the tree is not written while read
	s.rows.Ascend(&rowItem{key: model.Key{Cluster: cluster}}, func(it *rowItem) bool {
		if it.key.Cluster != cluster {
			return false
		}
		if it.v.Offline != offline {
			flip = append(flip, it.v)
		}
		return true
	})
	touched := len(flip) > 0
	for _, r := range flip {
		cp := *r
		cp.Offline = offline
		s.rows.Set(&rowItem{key: cp.Key(), v: &cp})
		s.changedRow(cp.Key())
	}
	if touched {
		s.changed()
	}
}

// SetClusters replaces the clusters' connection states.
func (s *Store) SetClusters(cs []model.ClusterState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clusters = make([]model.ClusterState, len(cs))
	for i, c := range cs {
		c.Notices = slices.Clone(c.Notices)
		s.clusters[i] = c
		if c.Since.After(s.latest) {
			s.latest = c.Since
		}
	}
	s.changed()
}

// Snapshot returns the current immutable view. It is cached until the next
// change; a new one is O(1) (a copy-on-write copy of the rows' tree).
func (s *Store) Snapshot() *Snapshot {
	if snap := s.snap.Load(); snap != nil {
		return snap
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if snap := s.snap.Load(); snap != nil {
		return snap
	}
	if by := [3]int(s.counts[:3]); s.byDrift == nil || by != s.byDriftOf {
		s.byDrift = map[drift.DriftSeverity]int{
			drift.SeverityOK:     s.counts[bucketOK],
			drift.SeverityYellow: s.counts[bucketYellow],
			drift.SeverityRed:    s.counts[bucketRed],
		}
		s.byDriftOf = by
	}
	snap := &Snapshot{
		Version: s.version,
		tree:    s.rows.Copy(),
		list:    &lazyRows{},
		Summary: Summary{Total: s.rows.Len(), ByDrift: s.byDrift,
			WaitingOnRelease: s.waiting, WaitingOnWorkload: s.counts[bucketPending],
			UnreadableWorkload: s.counts[bucketUnreadable], Verdicts: s.verdicts},
		Clusters: slices.Clone(s.clusters),
		Releases: s.releases,
		TakenAt:  s.latest,

		store:       s.id,
		journal:     s.journal.entries,
		journalFrom: s.journal.from,
	}
	if snap.Clusters == nil {
		snap.Clusters = []model.ClusterState{}
	}
	s.snap.Store(snap)
	return snap
}
