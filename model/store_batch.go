package model

import "slices"

// UpsertMany stores vs as Upsert would one by one, in one pass (the store
// keeps vs: the caller must not use it afterwards):
// rows already present are replaced where they are, new ones are sorted and
// merged in, so a first sync of n rows costs O(n log n), not n insertions.
func (s *Store) UpsertMany(vs []AppView) {
	if len(vs) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	own := vs
	added := make([]*AppView, 0, len(vs))
	fresh := map[Key]int{} // a key new to the store, by its place in added
	for i := range own {
		row := &own[i]
		if s.offline[row.Cluster] {
			row.Offline = true
		}
		k := row.Key()
		if j, ok := fresh[k]; ok { // the same new key twice: the later wins
			s.uncount(added[j])
			added[j] = row
		} else if at, found := s.find(k); found {
			s.uncount(s.rows[at])
			s.rows[at] = row
		} else {
			fresh[k] = len(added)
			added = append(added, row)
		}
		s.counts[sevIndex(row)]++
		if row.WaitsOnRelease() {
			s.waiting++
		}
		if row.ObservedAt.After(s.latest) {
			s.latest = row.ObservedAt
		}
		s.journal.add(s.version+1, k, len(s.rows)+len(added))
	}
	if len(added) > 0 {
		slices.SortFunc(added, func(a, b *AppView) int { return compareKeys(a.Key(), b.Key()) })
		merged := make([]*AppView, 0, len(s.rows)+len(added))
		i, j := 0, 0
		for i < len(s.rows) && j < len(added) {
			if compareKeys(s.rows[i].Key(), added[j].Key()) < 0 {
				merged = append(merged, s.rows[i])
				i++
			} else {
				merged = append(merged, added[j])
				j++
			}
		}
		s.rows = append(append(merged, s.rows[i:]...), added[j:]...)
	}
	s.changed()
}
