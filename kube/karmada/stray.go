package karmada

import (
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// strays are the objects the proxy serves that name a member not
// configured (the proxy caches whatever its ResourceRegistry says): never
// shown, only counted, each once however often it is listed or changed.
// Objects naming no member at all (Karmada's own) are not counted.
type strays struct {
	mu      sync.Mutex
	keys    map[string]bool // strayKey
	changed func()          // hears every change of the count
}

// strayKey is member + NUL + namespace/name; "" for an object naming no
// member.
func strayKey(member string, m metav1.Object) string {
	if member == "" || m == nil {
		return ""
	}
	return member + "\x00" + m.GetNamespace() + "/" + m.GetName()
}

func (s *strays) add(key string) {
	s.update(func() {
		if key != "" {
			if s.keys == nil {
				s.keys = map[string]bool{}
			}
			s.keys[key] = true
		}
	})
}

func (s *strays) remove(key string) { s.update(func() { delete(s.keys, key) }) }

// replace is a relist's strays: what it no longer serves is forgotten.
func (s *strays) replace(keys map[string]bool) { s.update(func() { s.keys = keys }) }

func (s *strays) update(f func()) {
	s.mu.Lock()
	before := len(s.keys)
	f()
	changed := before != len(s.keys)
	hear := s.changed
	s.mu.Unlock()
	if changed && hear != nil {
		hear()
	}
}

func (s *strays) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.keys)
}

// Stray counts the objects the proxy serves now that name a member not
// configured, dropped.
func (f *Feed) Stray() int { return f.strays.count() }

// OnStray has changed hear every change of Stray; set it before Run.
func (f *Feed) OnStray(changed func()) { f.strays.changed = changed }
