package wire

import (
	"bytes"
	"fmt"
	"net/http"
	"slices"
	"sync/atomic"

	"google.golang.org/protobuf/encoding/protowire"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/client-go/kubernetes/scheme"
	appsv1client "k8s.io/client-go/kubernetes/typed/apps/v1"
	"k8s.io/client-go/rest"
)

// workloadCodecs is the apps/v1 client's NegotiatedSerializer: the API
// machinery's, except that a protobuf watch event's object is not copied
// on its way to the object's own decoder. The machinery copies each object
// twice before decoding it (the event's RawExtension, then the
// runtime.Unknown envelope): at 10,000 Deployments and ReplicaSets, 98 MB
// of the start's 356 MB of allocations. Here both envelopes are read in
// place (protowire) and the object is decoded by its generated Unmarshal,
// as the machinery does; whatever the envelope reader does not vouch for
// (another field, a repeated one, a list, a decode into a given object)
// goes to the machinery's decoders. FuzzWorkloadEventDecode compares both.
type workloadCodecs struct {
	runtime.NegotiatedSerializer               // the machinery's, without conversion
	decoded                      *atomic.Int64 // objects read in place; may be nil
}

func newWorkloadCodecs(decoded *atomic.Int64) workloadCodecs {
	return workloadCodecs{NegotiatedSerializer: scheme.Codecs.WithoutConversion(), decoded: decoded}
}

func (w workloadCodecs) SupportedMediaTypes() []runtime.SerializerInfo {
	infos := slices.Clone(w.NegotiatedSerializer.SupportedMediaTypes())
	for i, info := range infos {
		if info.MediaType != runtime.ContentTypeProtobuf || info.StreamSerializer == nil {
			continue
		}
		info.Serializer = inPlaceObjects{Serializer: info.Serializer, decoded: w.decoded, scratch: &managedFieldsScratch{}}
		events := *info.StreamSerializer
		events.Serializer = inPlaceEvents{Serializer: events.Serializer}
		info.StreamSerializer = &events
		infos[i] = info
	}
	return infos
}

// newAppsV1Client is the typed apps/v1 client over hc with workloadCodecs.
func NewAppsV1Client(pb *rest.Config, hc *http.Client, decoded *atomic.Int64) (appsv1client.AppsV1Interface, error) {
	c := rest.CopyConfig(pb)
	gv := schema.GroupVersion{Group: "apps", Version: "v1"}
	c.GroupVersion, c.APIPath = &gv, "/apis"
	c.NegotiatedSerializer = newWorkloadCodecs(decoded)
	rc, err := rest.RESTClientForConfigAndClient(c, hc)
	if err != nil {
		return nil, fmt.Errorf("apps/v1 client: %w", err)
	}
	return appsv1client.New(rc), nil
}

// inPlaceEvents decodes a protobuf watch event (metav1.WatchEvent) with its
// object's bytes left where they are in the frame: the watch decoder hands
// them to the object decoder before it reads the next frame.
type inPlaceEvents struct{ runtime.Serializer }

var watchEventGVK = func() schema.GroupVersionKind {
	kinds, _, err := scheme.Scheme.ObjectKinds(&metav1.WatchEvent{})
	if err != nil {
		panic(err)
	}
	return kinds[0]
}()

func (e inPlaceEvents) Decode(data []byte, gvk *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	if ev, ok := into.(*metav1.WatchEvent); ok && gvk == nil {
		if typ, raw, ok := readWatchEvent(data); ok && len(data) > 0 {
			*ev = metav1.WatchEvent{Type: typ, Object: runtime.RawExtension{Raw: raw}}
			actual := watchEventGVK
			return ev, &actual, nil
		}
	}
	return e.Serializer.Decode(data, gvk, into)
}

// inPlaceObjects decodes a protobuf object (k8s magic, then a
// runtime.Unknown) from the envelope's bytes in place.
type inPlaceObjects struct {
	runtime.Serializer
	decoded *atomic.Int64
	scratch *managedFieldsScratch // the request's: it decodes one object at a time
}

var (
	protobufMagic = []byte{0x6b, 0x38, 0x73, 0x00} // "k8s\x00", the protobuf serializer's prefix
	rawProtobuf   = protobuf.NewRawSerializer(scheme.Scheme, scheme.Scheme)
)

func (o inPlaceObjects) Decode(data []byte, gvk *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	if into == nil && gvk == nil && len(data) > len(protobufMagic) && bytes.Equal(data[:len(protobufMagic)], protobufMagic) {
		// (An empty raw goes the machinery's way: the raw decoder refuses it.)
		if apiVersion, kind, raw, ok := readUnknown(data[len(protobufMagic):]); ok && len(raw) > 0 {
			actual := schema.FromAPIVersionAndKind(apiVersion, kind)
			if actual.Kind != "" && actual.Version != "" {
				if obj, err := scheme.Scheme.New(actual); err == nil {
					if o.decoded != nil {
						o.decoded.Add(1)
					}
					return o.decodeWorkload(raw, actual, obj)
				}
			}
		}
	}
	return o.Serializer.Decode(data, gvk, into)
}

// readWatchEvent reads metav1.WatchEvent{type = 1, object = 2} whose object
// is a runtime.RawExtension{raw = 1}; ok false for anything else (a field
// repeated, unknown or of another wire type), which the machinery decodes.
func readWatchEvent(b []byte) (typ string, raw []byte, ok bool) {
	var seen [3]bool
	for len(b) > 0 {
		num, v, rest, ok := nextBytesField(b)
		if !ok || num > 2 || seen[num] {
			return "", nil, false
		}
		seen[num], b = true, rest
		if num == 1 {
			typ = string(v)
			continue
		}
		for len(v) > 0 { // the RawExtension
			n, r, rest, ok := nextBytesField(v)
			if !ok || n != 1 || raw != nil {
				return "", nil, false
			}
			raw, v = r, rest
		}
	}
	return typ, raw, true
}

// readUnknown reads runtime.Unknown{typeMeta = 1 {apiVersion = 1, kind = 2},
// raw = 2, contentEncoding = 3, contentType = 4}, each once at most.
func readUnknown(b []byte) (apiVersion, kind string, raw []byte, ok bool) {
	var seen [5]bool
	for len(b) > 0 {
		num, v, rest, ok := nextBytesField(b)
		if !ok || num > 4 || seen[num] {
			return "", "", nil, false
		}
		seen[num], b = true, rest
		switch num {
		case 1:
			var seenMeta [3]bool
			for len(v) > 0 {
				n, s, rest, ok := nextBytesField(v)
				if !ok || n > 2 || seenMeta[n] {
					return "", "", nil, false
				}
				seenMeta[n], v = true, rest
				if n == 1 {
					apiVersion = string(s)
				} else {
					kind = string(s)
				}
			}
		case 2:
			raw = v
		}
	}
	return apiVersion, kind, raw, true
}

// nextBytesField reads one length-delimited field (number ≥ 1); ok false
// for any other wire type or a malformed one.
func nextBytesField(b []byte) (num protowire.Number, v, rest []byte, ok bool) {
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 || typ != protowire.BytesType {
		return 0, nil, nil, false
	}
	v, m := protowire.ConsumeBytes(b[n:])
	if m < 0 {
		return 0, nil, nil, false
	}
	return num, v, b[n+m:], true
}
