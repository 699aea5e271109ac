package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"

	"github.com/valyala/fastjson"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// appSerializer is the hanzo.ai/v1 client's NegotiatedSerializer: JSON
// only; LIST pages decode into *appList, watch events into *appEntry (or
// *metav1.Status for ERROR), each object parsed once. Anything else (the
// Status of a failed request) goes to the API machinery's decoder.
type AppSerializer struct {
	Cluster string
	Decoded *atomic.Int64 // Apps decoded, for tests to see this client was used; may be nil
}

// statusCodec decodes metav1.Status and the other meta types.
var statusCodec = func() runtime.Decoder {
	s := runtime.NewScheme()
	metav1.AddToGroupVersion(s, schema.GroupVersion{Version: "v1"})
	return serializer.NewCodecFactory(s).UniversalDeserializer()
}()

// SupportedMediaTypes is asked once per request; each answer pairs a fresh
// event decoder with the object decoder the watch decoder hands the event's
// object to, so the object parsed with its event is not parsed again.
func (s AppSerializer) SupportedMediaTypes() []runtime.SerializerInfo {
	st := &appStream{dec: appDecoder{cluster: s.Cluster}, decoded: s.Decoded}
	return []runtime.SerializerInfo{{
		MediaType: "application/json", MediaTypeType: "application", MediaTypeSubType: "json",
		EncodesAsText: true, Serializer: appObjects{st},
		StreamSerializer: &runtime.StreamSerializerInfo{EncodesAsText: true, Serializer: appEvents{st}, Framer: jsonFramer{}},
	}}
}

func (AppSerializer) EncoderForVersion(e runtime.Encoder, _ runtime.GroupVersioner) runtime.Encoder {
	return e
}

func (AppSerializer) DecoderToVersion(d runtime.Decoder, _ runtime.GroupVersioner) runtime.Decoder {
	return d
}

// appStream is one request's decoding state.
type appStream struct {
	dec     appDecoder
	decoded *atomic.Int64
	pending runtime.Object // the object of the event just decoded
	frame   []byte         // ... and the frame it came in
}

var errNoEncode = errors.New("the hanzo.ai/v1 client only reads")

type appObjects struct{ st *appStream }

func (appObjects) Encode(runtime.Object, io.Writer) error { return errNoEncode }
func (appObjects) Identifier() runtime.Identifier         { return "driftboard-apps-json" }

func (o appObjects) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	st := o.st
	switch into := into.(type) {
	case *AppList:
		return into, nil, st.decodeList(data, into)
	case nil:
		if p := st.pending; p != nil && len(data) > 0 && len(data) == len(st.frame) && &data[0] == &st.frame[0] {
			st.pending, st.frame = nil, nil
			return p, nil, nil
		}
		if isStatus(data) { // a failed request's reason (rest.Result.Error asks with into nil)
			return statusCodec.Decode(data, defaults, nil)
		}
		e, err := st.dec.decode(data, "", "")
		if err != nil {
			return nil, nil, err
		}
		return e, nil, nil
	}
	return statusCodec.Decode(data, defaults, into)
}

type appEvents struct{ st *appStream }

func (appEvents) Encode(runtime.Object, io.Writer) error { return errNoEncode }
func (appEvents) Identifier() runtime.Identifier         { return "driftboard-app-events-json" }

// Decode reads one watch event; its object waits in the stream for the
// watch decoder's next call (appObjects.Decode with this frame).
func (e appEvents) Decode(data []byte, _ *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	ev, ok := into.(*metav1.WatchEvent)
	if !ok {
		return nil, nil, fmt.Errorf("app watch stream: cannot decode into %T", into)
	}
	st := e.st
	st.pending, st.frame = nil, nil
	typ, obj, err := st.decodeEvent(data)
	if err != nil {
		return nil, nil, err
	}
	if _, isApp := obj.(*AppEntry); isApp && typ != "BOOKMARK" {
		st.count(1)
	}
	ev.Type, ev.Object = typ, runtime.RawExtension{Raw: data}
	st.pending, st.frame = obj, data
	return ev, nil, nil
}

func (st *appStream) decodeEvent(data []byte) (string, runtime.Object, error) {
	if fastSafe(data) {
		if v, err := st.dec.p.ParseBytes(data); err == nil {
			if o, err := v.Object(); err == nil {
				var typ, obj *fastjson.Value
				o.Visit(func(k []byte, v *fastjson.Value) {
					switch string(k) {
					case "type":
						typ = v
					case "object":
						obj = v
					}
				})
				if typ != nil && typ.Type() == fastjson.TypeString && obj != nil {
					t := string(typ.GetStringBytes())
					if x, err := st.eventObject(t, obj); err == nil {
						return t, x, nil
					}
				}
			}
		}
	}
	// The API machinery's way, for what the fast path does not vouch for.
	var raw struct {
		Type   string          `json:"type"`
		Object json.RawMessage `json:"object"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return "", nil, fmt.Errorf("app watch event: %w", err)
	}
	x, err := st.slowEventObject(raw.Type, raw.Object)
	return raw.Type, x, err
}

func (st *appStream) eventObject(typ string, obj *fastjson.Value) (runtime.Object, error) {
	switch typ {
	case "ERROR":
		return nil, errSlowPath // rare: the API machinery decodes the Status
	case "BOOKMARK":
		o, err := obj.Object()
		if err != nil {
			return nil, errSlowPath
		}
		meta, err := st.dec.pruned(o, bookmarkShape)
		if err != nil {
			return nil, err
		}
		return bookmarkOf(meta), nil
	}
	return st.dec.fromValue(obj, "")
}

func (st *appStream) slowEventObject(typ string, raw []byte) (runtime.Object, error) {
	switch typ {
	case "ERROR":
		out, _, err := statusCodec.Decode(raw, nil, &metav1.Status{})
		return out, err
	case "BOOKMARK":
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, err
		}
		return bookmarkOf(m), nil
	case "ADDED", "MODIFIED", "DELETED":
		return decodeAppSlow(st.dec.cluster, raw, "", "")
	}
	return nil, nil // the watch decoder rejects the type
}

// bookmarkShape is what the reflector reads of a BOOKMARK.
var bookmarkShape = shape{"metadata": keep("resourceVersion", "annotations")}

func bookmarkOf(obj map[string]any) *AppEntry {
	meta, _ := obj["metadata"].(map[string]any)
	rv, _ := meta["resourceVersion"].(string)
	var ann map[string]string
	if a, ok := meta["annotations"].(map[string]any); ok {
		ann = make(map[string]string, len(a))
		for k, v := range a {
			if s, ok := v.(string); ok {
				ann[k] = s
			}
		}
	}
	return BookmarkEntry(rv, ann)
}

// decodeList reads a LIST page: each item is framed and parsed on its own
// with the one reused parser, so a page never becomes one big tree.
func (st *appStream) decodeList(data []byte, into *AppList) error {
	top, err := walkObject(data)
	if err != nil {
		return fmt.Errorf("app list: %w", err)
	}
	// The list's own fields read as UnstructuredList reads them.
	rest := map[string]any{}
	for k, raw := range top {
		if k == "items" {
			continue
		}
		var v any
		if err := utiljson.Unmarshal(raw, &v); err != nil {
			return fmt.Errorf("app list %s: %w", k, err)
		}
		rest[k] = v
	}
	u := unstructured.Unstructured{Object: rest}
	*into = AppList{TypeMeta: metav1.TypeMeta{Kind: u.GetKind(), APIVersion: u.GetAPIVersion()}}
	into.ResourceVersion, into.Continue = u.GetResourceVersion(), u.GetContinue()
	into.RemainingItemCount = u.GetRemainingItemCount()
	items, err := walkArray(top["items"])
	if err != nil {
		return fmt.Errorf("app list items: %w", err)
	}
	itemKind := strings.TrimSuffix(into.Kind, "List")
	into.Items = make([]*AppEntry, 0, len(items))
	for _, raw := range items {
		e, err := st.dec.decode(raw, itemKind, into.APIVersion)
		if err != nil {
			return fmt.Errorf("app list item: %w", err)
		}
		into.Items = append(into.Items, e)
	}
	st.count(len(into.Items))
	return nil
}

func (st *appStream) count(n int) {
	if st.decoded != nil {
		st.decoded.Add(int64(n))
	}
}

// isStatus reports whether a response body is a metav1.Status. Only bodies
// outside lists and watch events get here, so the parse costs nothing that
// matters.
func isStatus(data []byte) bool {
	var head struct {
		Kind string `json:"kind"`
	}
	return json.Unmarshal(data, &head) == nil && head.Kind == "Status"
}
