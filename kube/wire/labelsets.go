package wire

import (
	"slices"
	"strconv"
	"sync"
)

// Apps of a fleet carry few distinct label sets (hanzo.ai/org and a few
// more): each decoded App brought its own map, ~340 bytes for one label, so
// 10,000 Apps kept 10,000 maps of the same content. Apps with equal labels
// now share one map; entries never mutate their maps. The table is bounded
// (by sets and by each set's size) so a cluster of hostile or all-distinct
// labels costs at most that, and those Apps keep their own maps.
const (
	maxLabelSets   = 1024
	maxLabelSetKey = 512 // bytes of a set's canonical form
)

var labelSets = struct {
	sync.Mutex
	m map[string]map[string]string
}{m: map[string]map[string]string{}}

// sharedLabels returns the table's map equal to m, adding m while there is
// room; m itself when the set is too big to share or the table is full.
func sharedLabels(m map[string]string) map[string]string {
	if len(m) == 0 {
		return m
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	// Lengths first: "a=b,c" and "a,b=c" must not read the same.
	var buf [maxLabelSetKey]byte
	key := buf[:0]
	for _, k := range keys {
		v := m[k]
		if len(key)+len(k)+len(v)+24 > maxLabelSetKey {
			return m
		}
		key = strconv.AppendInt(key, int64(len(k)), 10)
		key = append(key, ':')
		key = append(key, k...)
		key = strconv.AppendInt(key, int64(len(v)), 10)
		key = append(key, ':')
		key = append(key, v...)
	}
	labelSets.Lock()
	defer labelSets.Unlock()
	if s, ok := labelSets.m[string(key)]; ok {
		return s
	}
	if len(labelSets.m) < maxLabelSets {
		labelSets.m[string(key)] = m
	}
	return m
}
