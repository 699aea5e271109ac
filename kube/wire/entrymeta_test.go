package wire

import (
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
)

// TestEntryMetaIsSmall: a cache entry carries four strings and a map of
// metadata, not an ObjectMeta (264 bytes with its TypeMeta), and client-go
// still keys it, keys its tombstone, and reads a BOOKMARK's annotation.
func TestEntryMetaIsSmall(t *testing.T) {
	if got := unsafe.Sizeof(EntryMeta{}); got > 72 {
		t.Errorf("entryMeta is %d bytes, want at most 72", got)
	}
	e := &AppEntry{EntryMeta: EntryMeta{Name: "svc-00001", Namespace: "hanzo", UID: "u1", ResourceVersion: "7"}}
	for _, obj := range []any{e, cache.DeletedFinalStateUnknown{Key: "hanzo/svc-00001", Obj: e}} {
		key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
		if err != nil || key != "hanzo/svc-00001" {
			t.Errorf("key of %T = %q, %v", obj, key, err)
		}
	}
	m, err := meta.Accessor(e)
	if err != nil || m.GetUID() != "u1" || m.GetResourceVersion() != "7" {
		t.Fatalf("accessor: %v %+v", err, m)
	}
	bm := BookmarkEntry("42", map[string]string{metav1.InitialEventsAnnotationKey: "true"})
	if m, err := meta.Accessor(bm); err != nil || m.GetResourceVersion() != "42" ||
		m.GetAnnotations()[metav1.InitialEventsAnnotationKey] != "true" {
		t.Errorf("bookmark as the reflector reads it: %v %+v", err, m)
	}
}

// rawApp is an App as a decoder hands it over: every string its own copy.
func rawApp(name string, labels map[string]string) map[string]any {
	own := func(s string) string { return string([]byte(s)) }
	l := map[string]any{}
	for k, v := range labels {
		l[own(k)] = own(v)
	}
	return map[string]any{"kind": "App", "metadata": map[string]any{"name": name, "namespace": own("hanzo"), "labels": l},
		"spec": map[string]any{"image": map[string]any{"repository": "ghcr.io/hanzoai/x", "tag": "v1"}}}
}

func mapIdentity(m map[string]string) uintptr { return reflect.ValueOf(m).Pointer() }

// TestAppsShareLabels: Apps with equal labels share one map (and their
// namespace string); other labels, and a set too big to share, keep their
// own, and every App reads its own values.
func TestAppsShareLabels(t *testing.T) {
	org := map[string]string{"hanzo.ai/org": "hanzo-share-test", "tier": "web"}
	a := DecodeApp("c", rawApp("svc-00001", org))
	b := DecodeApp("c", rawApp("svc-00002", org))
	other := DecodeApp("c", rawApp("svc-00003", map[string]string{"hanzo.ai/org": "lux-share-test", "tier": "web"}))
	if !reflect.DeepEqual(a.Labels, org) || !reflect.DeepEqual(b.Labels, org) || other.Labels["hanzo.ai/org"] != "lux-share-test" {
		t.Fatalf("labels changed: %v %v %v", a.Labels, b.Labels, other.Labels)
	}
	if mapIdentity(a.Labels) != mapIdentity(b.Labels) {
		t.Error("equal label sets are two maps")
	}
	if mapIdentity(a.Labels) == mapIdentity(other.Labels) {
		t.Error("different label sets share a map")
	}
	if !sameBytes(a.Namespace, b.Namespace) {
		t.Error("the namespace is not shared")
	}
	// Key and value lengths are part of the set's form: these differ.
	x := DecodeApp("c", rawApp("svc-00004", map[string]string{"a": "b:1c"}))
	y := DecodeApp("c", rawApp("svc-00005", map[string]string{"a": "b", "1c": ""}))
	if len(x.Labels) != 1 || len(y.Labels) != 2 {
		t.Errorf("sets confused: %v %v", x.Labels, y.Labels)
	}
	big := map[string]string{"hanzo.ai/org": "hanzo-share-test", "note": strings.Repeat("n", maxLabelSetKey)}
	p, q := DecodeApp("c", rawApp("svc-00006", big)), DecodeApp("c", rawApp("svc-00007", big))
	if !reflect.DeepEqual(p.Labels, big) || mapIdentity(p.Labels) == mapIdentity(q.Labels) {
		t.Errorf("a set past the bound: %d entries, shared %v", len(p.Labels), mapIdentity(p.Labels) == mapIdentity(q.Labels))
	}
}
