package model

// UpsertMany stores vs as Upsert would one by one, under one lock and as
// one version. Each row is copied into its own allocation: rows pointing
// into one batch array would keep all of it alive for as long as any one
// row stays current (at 10,000 Apps, rows built batch by batch while the
// lists stream held ~35 MB of replaced rows). Each row costs O(log n), so
// a first sync of n rows is O(n log n).
func (s *Store) UpsertMany(vs []AppView) {
	if len(vs) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range vs {
		row := new(AppView)
		*row = vs[i]
		if s.offline[row.Cluster] {
			row.Offline = true
		}
		s.put(row)
		s.journal.add(s.version+1, row.Key(), s.rows.Len())
	}
	s.changed()
}
