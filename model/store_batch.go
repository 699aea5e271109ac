package model

// UpsertMany stores vs as Upsert would one by one, under one lock and as
// one version (the store keeps vs: the caller must not use it afterwards).
// Each row costs O(log n), so a first sync of n rows is O(n log n).
func (s *Store) UpsertMany(vs []AppView) {
	if len(vs) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range vs {
		row := &vs[i]
		if s.offline[row.Cluster] {
			row.Offline = true
		}
		s.put(row)
		s.journal.add(s.version+1, row.Key(), s.rows.Len())
	}
	s.changed()
}
