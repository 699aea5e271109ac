package provisional

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
)

type fakeHost struct {
	marked []model.Key
	notes  map[string]string
}

func (h *fakeHost) MarkRow(k model.Key) { h.marked = append(h.marked, k) }
func (h *fakeHost) SetNote(topic, text string) {
	if h.notes == nil {
		h.notes = map[string]string{}
	}
	h.notes[topic] = text
}

func app(t *testing.T, name, rv string) *unstructured.Unstructured {
	t.Helper()
	u := &unstructured.Unstructured{}
	err := u.UnmarshalJSON(fmt.Appendf(nil, `{"apiVersion":"hanzo.ai/v1","kind":"App","metadata":{"name":%q,"namespace":"hanzo","uid":"u-%s","resourceVersion":%q},
		"spec":{"role":"service","image":{"repository":"ghcr.io/hanzoai/%s","tag":"v1.0.0"}}}`, name, name, rv, name))
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// While the cluster syncs, an App the informer decodes is kept and its row
// marked once; the same App at the same version is not decoded again; a
// LIST page's Apps are kept too; once closed, nothing is kept and the keys
// shown come back.
func TestSeenKeepsWhatComesWhileSyncing(t *testing.T) {
	t.Parallel()
	h := &fakeHost{}
	p := New("c", h)
	decodes := 0
	transform := p.Transform(func(obj any) (any, error) {
		decodes++
		return wire.TransformApp("c")(obj)
	})
	iam := model.Key{Cluster: "c", Namespace: "hanzo", Name: "iam"}

	first, err := transform(app(t, "iam", "1"))
	if err != nil {
		t.Fatal(err)
	}
	again, err := transform(app(t, "iam", "1"))
	if err != nil {
		t.Fatal(err)
	}
	if decodes != 1 || again != first || p.Of("apps", iam) != first {
		t.Errorf("decoded %d times (same entry: %v, kept: %v)", decodes, again == first, p.Of("apps", iam) == first)
	}
	if !slices.Equal(h.marked, []model.Key{iam}) {
		t.Errorf("marked %v, want iam once", h.marked)
	}

	list := &unstructured.UnstructuredList{Items: []unstructured.Unstructured{*app(t, "kv", "3")}}
	p.SeeList(list)
	kv := model.Key{Cluster: "c", Namespace: "hanzo", Name: "kv"}
	if p.Of("apps", kv) == nil || p.Of("services", kv) != nil {
		t.Error("the LIST page's App was not kept as an App")
	}
	if got := p.KeysIn("hanzo"); len(got) != 2 {
		t.Errorf("keys in hanzo: %v", got)
	}

	shown := p.Close()
	slices.SortFunc(shown, func(a, b model.Key) int { return cmpName(a, b) })
	if !slices.Equal(shown, []model.Key{iam, kv}) || p.Open() {
		t.Errorf("closed: shown %v, open %v", shown, p.Open())
	}
	if _, err := transform(app(t, "late", "5")); err != nil || len(p.KeysIn("")) != 0 || decodes != 2 {
		t.Errorf("after the sync: kept %v, %d decodes", p.KeysIn(""), decodes)
	}
}

func cmpName(a, b model.Key) int {
	switch {
	case a.Name < b.Name:
		return -1
	case a.Name > b.Name:
		return 1
	}
	return 0
}

// A LIST page that cannot be read is said in the cluster's notice.
func TestSeeListSaysWhatItCouldNotRead(t *testing.T) {
	t.Parallel()
	h := &fakeHost{}
	New("c", h).SeeList(&badList{})
	if h.notes["provisional"] == "" {
		t.Error("no notice for an unreadable LIST page")
	}
}

// badList is a list whose items cannot be walked.
type badList struct{ unstructured.UnstructuredList }

func (badList) EachListItem(func(runtime.Object) error) error { return errors.New("broken page") }
