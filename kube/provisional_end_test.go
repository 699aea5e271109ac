package kube

import (
	"fmt"
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
)

// TestEndProvisionalMarksEveryRowNotBuiltFinal: which rows the sync's
// rebuild step marks, from caches filled by hand (the live test,
// TestSyncRebuildsTheProvisionalRows, cannot force a row to be still
// provisional when the sync ends: the workload informers' handlers and
// whenWorkloadsListed usually mark it first). Kept: a row built final from
// the entry the cache holds. Marked: one built final from another entry,
// one not built final (its workload was pending), one shown from the
// stream whose App the complete cache does not hold.
func TestEndProvisionalMarksEveryRowNotBuiltFinal(t *testing.T) {
	f := NewFleet(FleetOptions{}, ClusterClients{Name: "c"})
	c := f.clusters[0]
	apps := cache.NewSharedIndexInformer(&cache.ListWatch{}, &appsv1.Deployment{}, 0, nil)
	c.scopes = map[string]*scope{"": {inf: map[string]cache.SharedIndexInformer{"apps": apps}}}
	entry := func(name, rv string) *wire.AppEntry {
		u := decodeJSON(t, fmt.Sprintf(`{"apiVersion":"hanzo.ai/v1","kind":"App","metadata":{"name":%q,"namespace":"hanzo","uid":"u-%s","resourceVersion":%q},
			"spec":{"role":"service","image":{"repository":"ghcr.io/hanzoai/%s","tag":"v1.0.0"}}}`, name, name, rv, name))
		e, err := wire.TransformApp("c")(u)
		must(t, err)
		return e.(*wire.AppEntry)
	}
	k := func(name string) model.Key { return model.Key{Cluster: "c", Namespace: "hanzo", Name: name} }

	cached := map[string]*wire.AppEntry{}
	for _, name := range []string{"final", "other-entry", "pending"} {
		cached[name] = entry(name, "2")
		must(t, apps.GetIndexer().Add(cached[name]))
		c.prov.Put(k(name), cached[name])
	}
	c.prov.Put(k("gone"), entry("gone", "1")) // seen on the stream, not in the complete list
	c.prov.BuiltFinal(k("final"), cached["final"])
	c.prov.BuiltFinal(k("other-entry"), entry("other-entry", "1"))
	c.prov.BuiltFinal(k("pending"), nil)

	f.mu.Lock()
	clear(f.dirty)
	f.mu.Unlock()
	c.endProvisional()

	f.mu.Lock()
	var marked []string
	for key := range f.dirty {
		marked = append(marked, key.Name)
	}
	f.mu.Unlock()
	slices.Sort(marked)
	want := []string{"gone", "other-entry", "pending"}
	if !slices.Equal(marked, want) {
		t.Errorf("marked %v; want %v", marked, want)
	}
	if c.prov.Open() {
		t.Error("the provisional phase is still open after the sync")
	}
}
