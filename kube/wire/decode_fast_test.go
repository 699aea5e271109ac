package wire

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	restclientwatch "k8s.io/client-go/rest/watch"
)

// fixtureEvent is a MODIFIED event of an App of the seeded fleet (~3.4 KB,
// managedFields included), as the API server sends it.
func fixtureEvent(t testing.TB) []byte {
	b, err := os.ReadFile("testdata/app-event.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func fixtureApp(t testing.TB) []byte {
	var ev struct{ Object json.RawMessage }
	if err := json.Unmarshal(fixtureEvent(t), &ev); err != nil {
		t.Fatal(err)
	}
	return ev.Object
}

// The fast decoder gives exactly what the dynamic client's map and
// DecodeApp + GetManagedFields give, for any JSON the API machinery reads;
// anything else is an error or an entry, never a panic.
func FuzzFastDecodeApp(f *testing.F) {
	f.Add(string(fixtureApp(f)), false)
	f.Add(goodApp, true)
	f.Add(`{"kind":"Service","metadata":{"name":7,"managedFields":[{"time":"2026-01-02T03:04:05Z","fieldsV1":{"f:spec":{"f:image":{"f:tag":{}}}}}]},"spec":null}`, false)
	f.Add(`{"metadata":{"name":"a","name":"b","labels":{"x":"1","x":2},"managedFields":[{"time":"bad","fieldsV1":{}},{"time":"2026-01-02T03:04:05Z","fieldsV1":{"f:spec":{"f:image":{"f:tag":null}}}}]}}`, false)
	f.Add(`{"metadata":{"managedFields":[{"manager":5,"time":"2026-01-02T03:04:05Z","fieldsV1":{"f:spec":{"f:image":{"f:tag":{}}}}}]},"spec":{"replicas":1e3,"image":{"tag":"v\u00e9\u003c"}}}`, true)
	f.Add(`{"spec":{"image":{"tag":"v\ud83d\ude00"}}}`, false)
	f.Add(`{"spec":{"replicas":-0,"image":{"tag":1e400}},"status":{"conditions":[{"type":"\ud800"}],"endpoints":["a",1],"upgradeHistory":[{"phase":"x"},7]}}`, false)
	f.Add(`{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":{"a":1}}},"apiVersion":"x"}`, true)
	var d appDecoder
	d.cluster = "c"
	other := fixtureApp(f)
	f.Fuzz(func(t *testing.T, doc string, inList bool) {
		itemKind, apiVersion := "", ""
		if inList {
			itemKind, apiVersion = "Service", "hanzo.ai/v1"
		}
		got, gotErr := d.decode([]byte(doc), itemKind, apiVersion)
		if _, err := d.decode(other, "", ""); err != nil { // the parser's arena is reused: got must not share it
			t.Fatal(err)
		}
		var m map[string]any
		if err := utiljson.Unmarshal([]byte(doc), &m); err != nil || m == nil {
			return
		}
		if gotErr != nil {
			t.Fatalf("the API machinery reads it, the fast decoder fails: %v", gotErr)
		}
		u := &unstructured.Unstructured{Object: m}
		if inList && u.GetKind() == "" && u.GetAPIVersion() == "" {
			u.SetKind(itemKind)
			u.SetAPIVersion(apiVersion)
		}
		want := AppEntryOf("c", u)
		if diff := cmp.Diff(want.App, got.App); diff != "" {
			t.Errorf("app differs (-dynamic +fast):\n%s", diff)
		}
		if diff := cmp.Diff(want.EntryMeta, got.EntryMeta); diff != "" {
			t.Errorf("cache key differs (-dynamic +fast):\n%s", diff)
		}
	})
}

// The seeded App takes the fast path (the fuzz target's fallback would
// hide a fast path that never runs) and keeps its tag time.
func TestFastDecodeTakesTheFastPath(t *testing.T) {
	d := appDecoder{cluster: "c"}
	v, err := d.p.ParseBytes(fixtureApp(t))
	if err != nil {
		t.Fatal(err)
	}
	e, err := d.fromValue(v, "")
	if err != nil {
		t.Fatalf("fast path refused the seeded App: %v", err)
	}
	if e.App.TagSetAt.IsZero() || e.App.ImageTag == "" || e.Name != "svc-00002" {
		t.Errorf("decoded %+v", e.App)
	}
}

// streamDecoder is what rest.Request.Watch builds from a serializer.
func streamDecoder(t testing.TB, ns runtime.NegotiatedSerializer, body io.Reader) *restclientwatch.Decoder {
	obj, ser, framer, err := runtime.NewClientNegotiator(ns, schema.GroupVersion{Group: "hanzo.ai", Version: "v1"}).StreamDecoder("application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	return restclientwatch.NewDecoder(streaming.NewDecoder(framer.NewFrameReader(io.NopCloser(body)), ser), obj)
}

// A watch stream read a byte at a time (events split across reads and
// bigger than the decoder's first buffer): ADDED, BOOKMARK, ERROR, then EOF.
func TestAppWatchStreamDecodes(t *testing.T) {
	ev := fixtureEvent(t)
	body := string(ev) + `{"type":"BOOKMARK","object":{"kind":"App","apiVersion":"hanzo.ai/v1","metadata":{"resourceVersion":"99","annotations":{"k8s.io/initial-events-end":"true"}}}}` +
		"\n" + `{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 1 (2)","reason":"Expired","code":410}}` + "\n"
	dec := streamDecoder(t, AppSerializer{Cluster: "c"}, &oneByteReader{strings.NewReader(body)})
	typ, obj, err := dec.Decode()
	if e, ok := obj.(*AppEntry); err != nil || typ != watch.Modified || !ok || e.Name != "svc-00002" || e.App.TagSetAt.IsZero() {
		t.Fatalf("event 1: %v %T %v", typ, obj, err)
	}
	typ, obj, err = dec.Decode()
	if e, ok := obj.(*AppEntry); err != nil || typ != watch.Bookmark || !ok || e.ResourceVersion != "99" || e.Annotations[metav1.InitialEventsAnnotationKey] != "true" {
		t.Fatalf("bookmark: %v %#v %v", typ, obj, err)
	}
	typ, obj, err = dec.Decode()
	if s, ok := obj.(*metav1.Status); err != nil || typ != watch.Error || !ok || s.Code != 410 {
		t.Fatalf("error event: %v %#v %v", typ, obj, err)
	}
	if _, _, err = dec.Decode(); err != io.EOF {
		t.Fatalf("end of stream: %v, want EOF", err)
	}
	// A body cut inside an event ends the watch as a truncated stream.
	dec = streamDecoder(t, AppSerializer{Cluster: "c"}, bytes.NewReader(ev[:len(ev)/2]))
	if _, _, err = dec.Decode(); err != io.ErrUnexpectedEOF {
		t.Fatalf("cut stream: %v, want unexpected EOF", err)
	}
}

type oneByteReader struct{ r io.Reader }

func (o *oneByteReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	return o.r.Read(p[:1])
}

// loopReader serves the same event for ever.
type loopReader struct {
	ev  []byte
	off int
}

func (l *loopReader) Read(p []byte) (int, error) {
	n := copy(p, l.ev[l.off:])
	l.off = (l.off + n) % len(l.ev)
	return n, nil
}

// One App watch event through the whole client-side decoding: framing, the
// event, the object, the cache entry (what the informer stores).
func BenchmarkDecodeAppWatchEvent(b *testing.B) {
	ev := fixtureEvent(b)
	for _, c := range []struct {
		name string
		ns   runtime.NegotiatedSerializer
	}{
		{"dynamic", dynamic.ConfigFor(&rest.Config{}).NegotiatedSerializer},
		{"fast", AppSerializer{Cluster: "bench"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			dec := streamDecoder(b, c.ns, &loopReader{ev: ev})
			transform := TransformApp("bench")
			b.SetBytes(int64(len(ev)))
			b.ReportAllocs()
			for b.Loop() {
				_, obj, err := dec.Decode()
				if err != nil {
					b.Fatal(err)
				}
				if e, err := transform(obj); err != nil || e.(*AppEntry).App.ImageTag == "" {
					b.Fatal("not decoded", err)
				}
			}
		})
	}
}

// The watch framer splits a stream into the same events encoding/json's
// decoder does (strings with braces, quotes and backslashes, events split
// across reads of any size).
func FuzzFrameReader(f *testing.F) {
	f.Add(`{"a":"}\"{\\"}`+"\n"+`{"b":[{"c":"]\\\\"}]}`, uint8(1))
	f.Add(string(fixtureEvent(f))+string(fixtureEvent(f)), uint8(7))
	f.Fuzz(func(t *testing.T, stream string, chunk uint8) {
		var want []string
		dec := json.NewDecoder(strings.NewReader(stream))
		for {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				if err != io.EOF {
					return // not a clean stream of values
				}
				break
			}
			if raw[0] != '{' {
				return // events are objects
			}
			want = append(want, string(raw))
		}
		fr := jsonFramer{}.NewFrameReader(io.NopCloser(strings.NewReader(stream)))
		size := int(chunk%64) + 1
		for i := 0; ; i++ {
			var frame []byte
			buf := make([]byte, size)
			n, err := fr.Read(buf)
			for err == io.ErrShortBuffer {
				frame = append(frame, buf[:n]...)
				n, err = fr.Read(buf)
			}
			frame = append(frame, buf[:n]...)
			if err == io.EOF && len(frame) == 0 {
				if i != len(want) {
					t.Fatalf("%d frames, want %d", i, len(want))
				}
				return
			}
			if err != nil {
				t.Fatalf("frame %d: %v", i, err)
			}
			if i >= len(want) || string(frame) != want[i] {
				t.Fatalf("frame %d = %q, want %q", i, frame, want)
			}
		}
	})
}

// A LIST page decodes to the entries UnstructuredList's items decode to
// (an item without kind and apiVersion takes the list's).
func FuzzFastDecodeAppList(f *testing.F) {
	f.Add(`{"kind":"ServiceList","apiVersion":"hanzo.ai/v1","metadata":{"resourceVersion":"7","continue":"x","remainingItemCount":3},"items":[` +
		string(fixtureApp(f)) + `,{"metadata":{"name":"b"}},{"kind":5,"metadata":{"name":"c"}}]}`)
	f.Add(`{"kind":"AppList","items":null,"metadata":{"resourceVersion":5}}`)
	f.Fuzz(func(t *testing.T, doc string) {
		st := &appStream{dec: appDecoder{cluster: "c"}}
		var got AppList
		gotErr := st.decodeList([]byte(doc), &got)
		ul := &unstructured.UnstructuredList{}
		if err := runtime.DecodeInto(unstructured.UnstructuredJSONScheme, []byte(doc), ul); err != nil {
			return
		}
		if gotErr != nil {
			t.Fatalf("UnstructuredList reads it, decodeList fails: %v", gotErr)
		}
		if got.Kind != ul.GetKind() || got.ResourceVersion != ul.GetResourceVersion() || got.Continue != ul.GetContinue() ||
			!cmp.Equal(got.RemainingItemCount, ul.GetRemainingItemCount()) {
			t.Errorf("list meta %+v %+v, want %q %q %q %v", got.TypeMeta, got.ListMeta, ul.GetKind(), ul.GetResourceVersion(), ul.GetContinue(), ul.GetRemainingItemCount())
		}
		if len(got.Items) != len(ul.Items) {
			t.Fatalf("%d items, want %d", len(got.Items), len(ul.Items))
		}
		for i := range ul.Items {
			want := AppEntryOf("c", &ul.Items[i])
			if diff := cmp.Diff(want.App, got.Items[i].App); diff != "" {
				t.Errorf("item %d (-unstructured +fast):\n%s", i, diff)
			}
			if diff := cmp.Diff(want.EntryMeta, got.Items[i].EntryMeta); diff != "" {
				t.Errorf("item %d key (-unstructured +fast):\n%s", i, diff)
			}
		}
	})
}
