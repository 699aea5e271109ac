package store

import (
	"encoding/json"
	"iter"
	"sync"
	"time"

	"github.com/hanzoai/driftboard/model"
	"github.com/tidwall/btree"
)

// rowItem is a row in the store's tree, keyed by its Key (kept beside the
// row so a lookup needs no probe row). The tree holds pointers to items: a
// change copies the nodes on its path (below), and nodes of 8-byte items
// are a seventh of nodes of 56-byte ones (at 10,000 rows, ~1.3 KB copied a
// change instead of ~5.9 KB).
type rowItem struct {
	key model.Key
	v   *model.AppView
}

func lessRows(a, b *rowItem) bool { return a.key.Compare(b.key) < 0 }

// rowTree is the rows sorted by Key. A snapshot holds a copy-on-write Copy
// of the store's tree: taking one is O(1) and a later change copies only the
// nodes on its path, so a snapshot never sees it. A degree of 16 keeps the
// copied path small (nodes of at most 31 items). Items are never changed
// once in a tree: a change sets a new one.
type rowTree = btree.BTreeG[*rowItem]

func newRowTree() *rowTree {
	return btree.NewBTreeGOptions(lessRows, btree.Options{Degree: 16, NoLocks: true})
}

// lazyRows is a snapshot's rows as a slice, made on first use.
type lazyRows struct {
	once sync.Once
	rows []*model.AppView
}

// NewSnapshot returns a snapshot made by hand from rows (their order is
// kept; Find searches them one by one), for sources that are not a Store.
func NewSnapshot(rows []*model.AppView) *Snapshot {
	if rows == nil {
		rows = []*model.AppView{}
	}
	s := &Snapshot{list: &lazyRows{rows: rows}, Clusters: []model.ClusterState{}}
	s.list.once.Do(func() {})
	return s
}

// Len is how many rows the snapshot holds.
func (s *Snapshot) Len() int {
	switch {
	case s.tree != nil:
		return s.tree.Len()
	case s.list != nil:
		return len(s.Rows())
	}
	return 0
}

// All yields the rows in order (a store's: sorted by Key) without making a
// slice of them.
func (s *Snapshot) All() iter.Seq[*model.AppView] {
	return func(yield func(*model.AppView) bool) {
		if s.tree == nil {
			for _, r := range s.Rows() {
				if !yield(r) {
					return
				}
			}
			return
		}
		s.tree.Scan(func(it *rowItem) bool { return yield(it.v) })
	}
}

// Rows returns every row in order, as a slice made once per snapshot and
// shared: callers must not modify it. O(n) the first time; a frame needs
// only Find, Len and the journal.
func (s *Snapshot) Rows() []*model.AppView {
	if s.list == nil {
		return []*model.AppView{}
	}
	s.list.once.Do(func() {
		rows := make([]*model.AppView, 0, s.Len())
		for r := range s.All() {
			rows = append(rows, r)
		}
		s.list.rows = rows
	})
	return s.list.rows
}

// Find returns the row with key k, or nil: O(log n) in a store's
// snapshot; a snapshot made by hand is searched row by row.
func (s *Snapshot) Find(k model.Key) *model.AppView {
	if s.tree == nil {
		for _, r := range s.Rows() {
			if r.Key() == k {
				return r
			}
		}
		return nil
	}
	it, ok := s.tree.Get(&rowItem{key: k})
	if !ok {
		return nil
	}
	return it.v
}

// ClusterCount is how many clusters the snapshot spans: the clusters'
// states when known, else told from the rows, counting up to 2 (a store's
// rows are sorted by cluster first, so its first and last row tell).
func (s *Snapshot) ClusterCount() int {
	if len(s.Clusters) > 0 {
		return len(s.Clusters)
	}
	if s.tree != nil {
		first, ok := s.tree.Min()
		if !ok {
			return 0
		}
		if last, _ := s.tree.Max(); last.key.Cluster != first.key.Cluster {
			return 2
		}
		return 1
	}
	n, first := 0, ""
	for r := range s.All() {
		if n == 0 {
			first, n = r.Cluster, 1
		} else if r.Cluster != first {
			return 2
		}
	}
	return n
}

// snapshotJSON is a Snapshot's JSON shape, rows included.
type snapshotJSON struct {
	Version  uint64               `json:"version"`
	Rows     []*model.AppView     `json:"rows"`
	Summary  Summary              `json:"summary"`
	Clusters []model.ClusterState `json:"clusters"`
	Releases model.ReleaseChecks  `json:"releases"`
	TakenAt  time.Time            `json:"takenAt"`
}

// MarshalJSON writes the snapshot with its rows.
func (s *Snapshot) MarshalJSON() ([]byte, error) {
	return json.Marshal(snapshotJSON{Version: s.Version, Rows: s.Rows(), Summary: s.Summary,
		Clusters: s.Clusters, Releases: s.Releases, TakenAt: s.TakenAt})
}
