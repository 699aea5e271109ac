package wire

import (
	"math/rand/v2"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/encoding/protowire"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/client-go/kubernetes/scheme"
)

// eventDecoders are what rest.Request.Watch takes from a serializer for
// protobuf: the event decoder and the object decoder.
func eventDecoders(t testing.TB, ns runtime.NegotiatedSerializer) (runtime.Decoder, runtime.Serializer) {
	obj, events, _, err := runtime.NewClientNegotiator(ns, appsv1.SchemeGroupVersion).StreamDecoder(runtime.ContentTypeProtobuf, nil)
	if err != nil {
		t.Fatal(err)
	}
	return obj, events
}

// protobufEvent is a watch event frame as the API server sends it.
func protobufEvent(t testing.TB, typ string, obj runtime.Object) []byte {
	raw, err := runtime.Encode(protobuf.NewSerializer(scheme.Scheme, scheme.Scheme), obj)
	if err != nil {
		t.Fatal(err)
	}
	ev := metav1.WatchEvent{Type: typ, Object: runtime.RawExtension{Raw: raw}}
	frame, err := ev.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return frame
}

func workloadSeeds(t testing.TB) [][]byte {
	replicas := int32(3)
	meta := metav1.ObjectMeta{Name: "svc-1", Namespace: "hanzo", UID: "u-1", ResourceVersion: "42", Generation: 7,
		Labels: map[string]string{"app": "svc-1"}, Annotations: map[string]string{RevisionAnnotation: "4"},
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "hanzo.ai/v1", Kind: "App", Name: "svc-1", UID: "a-1"}},
		ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "operator", Operation: metav1.ManagedFieldsOperationApply,
			APIVersion: "apps/v1", FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:spec":{"f:replicas":{}}}`)}}}
	template := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "svc-1"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "ghcr.io/hanzoai/svc-1:v1.0.0",
			Env:       []corev1.EnvVar{{Name: "A", Value: "b"}},
			Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m")}}}}}}
	typed := func(kind, apiVersion string) metav1.TypeMeta {
		return metav1.TypeMeta{Kind: kind, APIVersion: apiVersion}
	}
	d := &appsv1.Deployment{TypeMeta: typed("Deployment", "apps/v1"), ObjectMeta: meta, Spec: appsv1.DeploymentSpec{Replicas: &replicas,
		Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "svc-1"}}, Template: template},
		Status: appsv1.DeploymentStatus{Replicas: 3, ReadyReplicas: 2, Conditions: []appsv1.DeploymentCondition{
			{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: "MinimumReplicasAvailable"}}}}
	rs := &appsv1.ReplicaSet{TypeMeta: typed("ReplicaSet", "apps/v1"), ObjectMeta: meta, Spec: appsv1.ReplicaSetSpec{Replicas: &replicas, Template: template},
		Status: appsv1.ReplicaSetStatus{Replicas: 3, AvailableReplicas: 3}}
	sts := &appsv1.StatefulSet{TypeMeta: typed("StatefulSet", "apps/v1"), ObjectMeta: meta, Spec: appsv1.StatefulSetSpec{Replicas: &replicas, Template: template}}
	bookmark := &appsv1.Deployment{TypeMeta: typed("Deployment", "apps/v1"), ObjectMeta: metav1.ObjectMeta{ResourceVersion: "99",
		Annotations: map[string]string{metav1.InitialEventsAnnotationKey: "true"}}}
	status := &metav1.Status{TypeMeta: typed("Status", "v1"), Status: metav1.StatusFailure, Message: "too old resource version", Reason: metav1.StatusReasonExpired, Code: 410}
	seeds := [][]byte{
		protobufEvent(t, "ADDED", d), protobufEvent(t, "MODIFIED", rs), protobufEvent(t, "DELETED", sts),
		protobufEvent(t, "BOOKMARK", bookmark), protobufEvent(t, "ERROR", status),
		protobufEvent(t, "ADDED", &appsv1.Deployment{}), // no kind: the machinery's error
		protobufEvent(t, "ADDED", &appsv1.Deployment{TypeMeta: typed("Deployment", "apps/v1")}),
	}
	withExtra := append(protobufEvent(t, "ADDED", d), 0x1a, 0x01, 'x') // a field 3 the reader does not know
	twice := append(protobufEvent(t, "ADDED", d), protobufEvent(t, "MODIFIED", rs)...)
	return append(seeds, withExtra, twice, overrunningLabel(), refusedManagedFields(), nil, []byte{0x0a}, []byte{0x12, 0x02, 0x0a, 0x00},
		refusedQuantity(), overrunningNodeSelector())
}

// overrunningLabel is a Deployment event whose label's key claims more bytes
// than its map entry holds: the generated code reads on into what follows
// the entry, a managedFields record, so leaving that out would change the
// key (the machinery's decoding has it with the record's first bytes).
func overrunningLabel() []byte {
	entry := protowire.AppendTag(nil, 1, protowire.BytesType)
	entry = protowire.AppendVarint(entry, 1+4) // "a" and 4 bytes past the entry
	entry = append(entry, 'a')
	record := bytesField(nil, 1, []byte("operator"))
	meta := bytesField(nil, 11, entry)
	meta = bytesField(meta, 17, record)
	meta = bytesField(meta, 3, []byte("namespace-after-the-record"))
	return deploymentEvent(meta)
}

// refusedManagedFields is a Deployment event with a managedFields entry
// whose manager is a number: well-formed protobuf, which the generated
// Unmarshal refuses, so the event must fail as it does.
func refusedManagedFields() []byte {
	record := protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), 5)
	return deploymentEvent(bytesField(bytesField(nil, 1, []byte("svc-1")), 17, record))
}

func bytesField(b []byte, num protowire.Number, v []byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), v)
}

// deploymentEvent is an ADDED event of a Deployment with these metadata bytes.
func deploymentEvent(meta []byte) []byte {
	deployment := bytesField(nil, 1, meta)
	typeMeta := bytesField(bytesField(nil, 1, []byte("apps/v1")), 2, []byte("Deployment"))
	unknown := bytesField(bytesField(nil, 1, typeMeta), 2, deployment)
	object := append([]byte("k8s\x00"), unknown...)
	return bytesField(bytesField(nil, 1, []byte("ADDED")), 2, bytesField(nil, 1, object))
}

// sameDecoding decodes frame with the machinery's decoders and with
// workloadCodecs' and fails on any difference: the event, the object,
// whether each failed and how.
func sameDecoding(t *testing.T, frame []byte) {
	t.Helper()
	stdObj, stdEvents := eventDecoders(t, scheme.Codecs.WithoutConversion())
	ourObj, ourEvents := eventDecoders(t, newWorkloadCodecs(nil))
	var want, got metav1.WatchEvent
	_, _, wantErr := stdEvents.Decode(frame, nil, &want)
	_, _, gotErr := ourEvents.Decode(frame, nil, &got)
	if (wantErr == nil) != (gotErr == nil) || wantErr != nil && wantErr.Error() != gotErr.Error() {
		t.Fatalf("event %x: error %v, the machinery's %v", frame, gotErr, wantErr)
	}
	if wantErr != nil {
		return
	}
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("event %x: %#v, the machinery's %#v", frame, got, want)
	}
	wantObj, wantErr := runtime.Decode(stdObj, want.Object.Raw)
	gotObj, gotErr := runtime.Decode(ourObj, got.Object.Raw)
	if (wantErr == nil) != (gotErr == nil) || wantErr != nil && wantErr.Error() != gotErr.Error() {
		t.Fatalf("object %x: error %v, the machinery's %v", got.Object.Raw, gotErr, wantErr)
	}
	if reflect.DeepEqual(wantObj, gotObj) {
		return // as the machinery decodes it (managedFields kept where leaving them out was not safe)
	}
	switch o := wantObj.(type) {
	case *appsv1.Deployment, *appsv1.ReplicaSet, *appsv1.StatefulSet:
		o.(metav1.Object).SetManagedFields(nil) // left out on purpose: no transform reads them
		if spec := podSpecOf(o); spec != nil {
			withoutResources(spec)
		}
	}
	if !reflect.DeepEqual(wantObj, gotObj) {
		t.Fatalf("object %x: (-machinery +ours)\n%s", got.Object.Raw, cmp.Diff(wantObj, gotObj, cmp.Exporter(func(reflect.Type) bool { return true })))
	}
}

// TestWorkloadEventDecodeMatchesTheMachinery: the seeds and 100,000 random
// mutations of them (bytes flipped, cut, inserted: hostile varints, lengths,
// wire types, repeated and unknown fields) decode as the API machinery
// decodes them, errors included.
func TestWorkloadEventDecodeMatchesTheMachinery(t *testing.T) {
	seeds := workloadSeeds(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range seeds {
		sameDecoding(t, s)
	}
	for range 100000 {
		b := append([]byte(nil), seeds[rng.IntN(len(seeds))]...)
		for range 1 + rng.IntN(4) {
			switch i := rng.IntN(len(b) + 1); {
			case len(b) == 0 || rng.IntN(4) == 0:
				b = append(b[:i:i], append([]byte{byte(rng.IntN(256))}, b[i:]...)...)
			case rng.IntN(3) == 0:
				b = b[:min(i, len(b))]
			default:
				b[min(i, len(b)-1)] = byte(rng.IntN(256))
			}
		}
		sameDecoding(t, b)
	}
}

func FuzzWorkloadEventDecode(f *testing.F) {
	for _, s := range workloadSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, frame []byte) { sameDecoding(t, frame) })
}

// The Deployment, ReplicaSet and StatefulSet events take the in-place path
// and leave managedFields out (the comparison's fallbacks would hide a path
// that never runs), and what they decode keeps nothing of the frame, which
// the stream decoder reuses.
func TestWorkloadCodecsReadInPlace(t *testing.T) {
	var inPlace atomic.Int64
	obj, events := eventDecoders(t, newWorkloadCodecs(&inPlace))
	for i, frame := range workloadSeeds(t)[:3] {
		var ev metav1.WatchEvent
		if _, _, err := events.Decode(frame, nil, &ev); err != nil {
			t.Fatal(err)
		}
		before := inPlace.Load()
		o, err := runtime.Decode(obj, ev.Object.Raw)
		if err != nil || inPlace.Load() != before+1 {
			t.Fatalf("seed %d: %v; read in place %d times, want %d", i, err, inPlace.Load(), before+1)
		}
		if m, ok := o.(metav1.Object); !ok || m.GetManagedFields() != nil || m.GetName() != "svc-1" {
			t.Fatalf("seed %d: %T decoded with managedFields %v", i, o, m.GetManagedFields())
		}
		if c := podSpecOf(o).Containers; len(c) != 1 || c[0].Image == "" || c[0].Resources.Limits != nil || len(c[0].Env) != 1 {
			t.Fatalf("seed %d: %T decoded with containers %+v, want one with its image and env, no resources", i, o, c)
		}
		want := o.DeepCopyObject()
		for j := range frame {
			frame[j] = 0
		}
		if !reflect.DeepEqual(o, want) {
			t.Fatalf("seed %d: the decoded %T changed with the frame's bytes", i, o)
		}
	}
}
