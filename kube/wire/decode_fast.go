package wire

import (
	"errors"

	"github.com/valyala/fastjson"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// Decoding an App's JSON in one parse (fastjson, no reflection), straight
// into its cache entry. Only what DecodeApp reads is converted to the map
// shape it takes (spec, status, labels, annotations: a few fields of each),
// so the rows are exactly today's; managedFields are read in place for
// tagSetAt. Where fastjson and the API machinery's JSON could differ
// (invalid UTF-8, unusual escapes, numbers JSON does not allow, a parse
// error, nesting beyond fastjson's limit), the object goes the old way:
// unstructured map, DecodeApp, GetManagedFields. FuzzFastDecodeApp checks
// the two agree.

// shape names the keys of an object DecodeApp reads; a nil shape keeps the
// whole value, "[]" is the shape of an array's elements.
type shape map[string]shape

var (
	leaf shape
	keep = func(keys ...string) shape {
		s := shape{}
		for _, k := range keys {
			s[k] = leaf
		}
		return s
	}
	metadataShape = keep("name", "namespace", "uid", "resourceVersion", "generation", "creationTimestamp", "labels", "annotations")
	appShape      = shape{
		"kind":     leaf,
		"metadata": metadataShape,
		"spec": shape{
			"role": leaf, "replicas": leaf,
			"image": keep("repository", "tag"),
		},
		"status": shape{
			"phase": leaf, "readyReplicas": leaf, "availableReplicas": leaf, "observedGeneration": leaf,
			"lastGoodImage": leaf,
			"upgrade":       keep("targetImage", "phase"),
			"upgradeHistory": shape{"[]": keep("image", "targetImage", "outcome", "phase", "result",
				"completedAt", "finishedAt", "time", "startedAt", "message")},
			"conditions": shape{"[]": keep("type", "status", "reason", "message")},
			"endpoints":  leaf,
		},
	}
	// The last-applied configuration is as big as the object and stringMap
	// never reads it: its key is kept with a nil value.
	lastApplied = "kubectl.kubernetes.io/last-applied-configuration"
)

// shapeKeys maps every key a shape names to itself.
var shapeKeys = func() map[string]string {
	out := map[string]string{}
	var add func(s shape)
	add = func(s shape) {
		for k, sub := range s {
			out[k] = k
			add(sub)
		}
	}
	add(appShape)
	return out
}()

// errSlowPath: the fast decoder cannot vouch for this input.
var errSlowPath = errors.New("app json: needs the API machinery's decoder")

// appDecoder decodes Apps; one per goroutine (the parser's arena is reused).
type appDecoder struct {
	cluster string
	p       fastjson.Parser
	scratch []byte
	// The maps and lists an object is converted to are read by DecodeApp,
	// which copies what it keeps (strings, and labels into a map of its own),
	// so the next object reuses them: at 10,000 Apps they were ~26 MB of a
	// start's ~210 MB of allocations, each a GC cycle's share.
	maps          []map[string]any
	lists         [][]any
	nMaps, nLists int
}

// decode reads one App object's JSON into its entry. listKind is the
// enclosing list's item kind and apiVersion ("" outside a list).
func (d *appDecoder) decode(data []byte, itemKind, listAPIVersion string) (*AppEntry, error) {
	if fastSafe(data) {
		if v, err := d.p.ParseBytes(data); err == nil {
			if e, err := d.fromValue(v, itemKind); err == nil {
				return e, nil
			}
		}
	}
	return decodeAppSlow(d.cluster, data, itemKind, listAPIVersion)
}

// decodeAppSlow is the old way, for what the fast path does not vouch for.
func decodeAppSlow(cluster string, data []byte, itemKind, listAPIVersion string) (*AppEntry, error) {
	var m map[string]any
	if err := utiljson.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{Object: m}
	if itemKind != "" && u.GetKind() == "" && u.GetAPIVersion() == "" {
		u.SetKind(itemKind) // as UnstructuredList decoding does
		u.SetAPIVersion(listAPIVersion)
	}
	return AppEntryOf(cluster, u), nil
}

// appEntryOf is the decode of an unstructured App (the dynamic client's).
func AppEntryOf(cluster string, u *unstructured.Unstructured) *AppEntry {
	app := DecodeApp(cluster, u.Object)
	app.TagSetAt = tagSetAt(u.GetManagedFields())
	// The cache key must be the real one even when metadata was odd.
	e := &AppEntry{App: app}
	e.EntryMeta = EntryMeta{
		Name: u.GetName(), Namespace: intern(u.GetNamespace()),
		UID: types.UID(u.GetUID()), ResourceVersion: u.GetResourceVersion(),
	}
	return e
}

func (d *appDecoder) fromValue(v *fastjson.Value, itemKind string) (*AppEntry, error) {
	o, err := v.Object()
	if err != nil {
		return nil, errSlowPath
	}
	d.nMaps, d.nLists = 0, 0 // the last object's entry is made: its maps are free
	obj, err := d.pruned(o, appShape)
	if err != nil {
		return nil, err
	}
	if itemKind != "" {
		k, _ := obj["kind"].(string)
		if k == "" && !hasStringAPIVersion(o) {
			obj["kind"] = itemKind
		}
	}
	app := DecodeApp(d.cluster, obj)
	meta, _ := obj["metadata"].(map[string]any)
	str := func(k string) string { s, _ := meta[k].(string); return s }
	e := &AppEntry{}
	e.EntryMeta = EntryMeta{Name: str("name"), Namespace: intern(str("namespace")),
		UID: types.UID(str("uid")), ResourceVersion: str("resourceVersion")}
	var mf *fastjson.Value
	o.Visit(func(k []byte, v *fastjson.Value) {
		if string(k) == "metadata" {
			mf = nil
			if mo, err := v.Object(); err == nil {
				mo.Visit(func(k []byte, v *fastjson.Value) {
					if string(k) == "managedFields" {
						mf = v
					}
				})
			}
		}
	})
	app.TagSetAt = tagSetAtOf(mf)
	e.App = app
	return e, nil
}

func hasStringAPIVersion(o *fastjson.Object) bool {
	has := false
	o.Visit(func(k []byte, v *fastjson.Value) {
		if string(k) == "apiVersion" {
			has = v.Type() == fastjson.TypeString && len(v.GetStringBytes()) > 0
		}
	})
	return has
}

// pruned converts the keys of o that s names (the last of duplicate keys
// wins, as in encoding/json).
func (d *appDecoder) pruned(o *fastjson.Object, s shape) (map[string]any, error) {
	m := d.newMap()
	var err error
	o.Visit(func(k []byte, v *fastjson.Value) {
		sub, ok := s[string(k)]
		if !ok || err != nil {
			return
		}
		var x any
		x, err = d.value(v, sub)
		m[shapeKeys[string(k)]] = x // the shape's own string: no copy of the key
	})
	return m, err
}

func (d *appDecoder) value(v *fastjson.Value, s shape) (any, error) {
	switch v.Type() {
	case fastjson.TypeObject:
		if s != nil {
			if _, list := s["[]"]; !list {
				o, _ := v.Object()
				return d.pruned(o, s)
			}
		}
	case fastjson.TypeArray:
		if elem, ok := s["[]"]; ok {
			a, _ := v.Array()
			out := d.newList(len(a))
			for i, x := range a {
				var err error
				if out[i], err = d.value(x, elem); err != nil {
					return nil, err
				}
			}
			return out, nil
		}
	}
	return d.full(v, 0)
}

// full converts a whole value as the API machinery's JSON does: numbers
// without a '.' that fit are int64, others float64.
func (d *appDecoder) full(v *fastjson.Value, depth int) (any, error) {
	switch v.Type() {
	case fastjson.TypeNull:
		return nil, nil
	case fastjson.TypeTrue:
		return true, nil
	case fastjson.TypeFalse:
		return false, nil
	case fastjson.TypeString:
		return string(v.GetStringBytes()), nil
	case fastjson.TypeNumber:
		d.scratch = v.MarshalTo(d.scratch[:0])
		return jsonNumber(string(d.scratch))
	case fastjson.TypeArray:
		a, _ := v.Array()
		out := d.newList(len(a))
		for i, x := range a {
			var err error
			if out[i], err = d.full(x, depth+1); err != nil {
				return nil, err
			}
		}
		return out, nil
	case fastjson.TypeObject:
		o, _ := v.Object()
		m := d.newMap()
		var err error
		o.Visit(func(k []byte, x *fastjson.Value) {
			if err != nil {
				return
			}
			if string(k) == lastApplied {
				m[lastApplied] = nil
				return
			}
			m[string(k)], err = d.full(x, depth+1)
		})
		return m, err
	}
	return nil, errSlowPath
}
