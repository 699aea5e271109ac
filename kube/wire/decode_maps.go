package wire

import (
	"slices"
	"strings"

	"github.com/hanzoai/driftboard/model"
)

func (d *decoder) stringMap(m map[string]any, key, path string) map[string]string {
	o := d.object(m, key, path)
	if len(o) == 0 {
		return nil
	}
	// Known keys first, then the rest in key order: the cap never drops
	// hanzo.ai/org or a restart stamp, and what it drops does not depend on
	// map order.
	keys := make([]string, 0, len(o))
	for k := range o {
		if k != "kubectl.kubernetes.io/last-applied-configuration" { // as big as the object; rows never show it
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b string) int {
		if ka, kb := knownKey(a), knownKey(b); ka != kb {
			if ka {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	out := make(map[string]string, min(len(keys), maxLabels))
	for _, k := range keys {
		if len(out) == maxLabels {
			d.fail(path, "more than %d entries; the rest ignored", maxLabels)
			break
		}
		s, ok := o[k].(string)
		if !ok {
			d.fail(path+"."+k, "want a string, got %s", typeName(o[k]))
			continue
		}
		out[k] = Truncate(s, maxField)
	}
	return out
}

// knownKey: labels and annotations the board reads, kept whatever the cap.
func knownKey(k string) bool {
	return strings.HasPrefix(k, "hanzo.ai/") || strings.HasPrefix(k, "app.kubernetes.io/") ||
		k == model.KubectlRestartedAtAnnotation || k == model.CDTrackingIDAnnotation
}

// maxReused bounds the maps and lists kept for the next object: a huge one
// would cost its capacity to clear each time.
const maxReused = 64

// newMap is an empty map for this object, reused from an earlier one.
func (d *appDecoder) newMap() map[string]any {
	if d.nMaps == len(d.maps) {
		d.maps = append(d.maps, nil)
	}
	m := d.maps[d.nMaps]
	if m == nil || len(m) > maxReused {
		m = make(map[string]any, 8)
		d.maps[d.nMaps] = m
	} else {
		clear(m)
	}
	d.nMaps++
	return m
}

// newList is a list of n nils for this object, reused from an earlier one.
func (d *appDecoder) newList(n int) []any {
	if n > maxReused {
		return make([]any, n)
	}
	if d.nLists == len(d.lists) {
		d.lists = append(d.lists, make([]any, 0, 8))
	}
	l := d.lists[d.nLists]
	if cap(l) < n {
		l = make([]any, 0, n)
	}
	l = l[:n]
	clear(l)
	d.lists[d.nLists] = l
	d.nLists++
	return l
}
