package store

import "github.com/hanzoai/driftboard/model"

// UpsertMany stores vs as Upsert would one by one, under one lock and as
// one version. Each row is copied into its own allocation: rows pointing
// into one batch array would keep all of it alive for as long as any one
// row stays current (at 10,000 Apps, rows built batch by batch while the
// lists stream held ~35 MB of replaced rows). Each row costs O(log n), so
// a first sync of n rows is O(n log n).
func (s *Store) UpsertMany(vs []model.AppView) {
	rows := make([]*model.AppView, len(vs))
	for i := range vs {
		rows[i] = new(model.AppView)
		*rows[i] = vs[i]
	}
	s.UpsertRows(rows)
}

// UpsertRows is UpsertMany for rows the caller hands over: each is its own
// allocation, and the caller never reads or writes it again (the store may
// mark it offline; snapshots share it). It spares a copy of each row.
func (s *Store) UpsertRows(rows []*model.AppView) {
	if len(rows) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, row := range rows {
		if s.offline[row.Cluster] {
			row.Offline = true
		}
		s.put(row)
		s.journal.add(s.version+1, row.Key(), s.rows.Len())
	}
	s.changed()
}
