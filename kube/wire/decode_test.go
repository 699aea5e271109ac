package wire

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/hanzoai/driftboard/model"
)

// decodeJSON goes through the same JSON scheme the dynamic client uses, so
// numbers arrive as int64/float64 exactly as from the API server.
func decodeJSON(t testing.TB, s string) *unstructured.Unstructured {
	t.Helper()
	u := &unstructured.Unstructured{}
	if err := runtime.DecodeInto(unstructured.UnstructuredJSONScheme, []byte(s), u); err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return u
}

const goodApp = `{"apiVersion":"hanzo.ai/v1","kind":"App","metadata":{"name":"iam","namespace":"hanzo",
 "uid":"u1","resourceVersion":"7","generation":3,"creationTimestamp":"2026-01-02T03:04:05Z",
 "labels":{"hanzo.ai/org":"hanzo"},"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{huge}","note":"x"},
 "managedFields":[{"manager":"kubectl"}]},
 "spec":{"role":"iam","replicas":3,"image":{"repository":"ghcr.io/hanzoai/iam","tag":"v1.2.3","pullPolicy":"Always"},
  "env":[{"name":"A","value":"b"}],"futureField":{"x":1}},
 "status":{"phase":"Running","readyReplicas":2,"availableReplicas":2,"observedGeneration":3,
  "conditions":[{"type":"Ready","status":"False","reason":"NotReady","message":"2/3 replicas ready"}],
  "endpoints":["https://iam.hanzo.ai"],"lastGoodImage":"ghcr.io/hanzoai/iam:v1.2.2"}}`

func TestDecodeAppGood(t *testing.T) {
	t.Parallel()
	got := DecodeApp("prod", decodeJSON(t, goodApp).Object)
	three := int32(3)
	want := model.AppObject{
		Key: model.Key{Cluster: "prod", Namespace: "hanzo", Name: "iam"}, Kind: "App", UID: "u1",
		ResourceVersion: "7", Generation: 3, CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Labels: map[string]string{"hanzo.ai/org": "hanzo"}, Annotations: map[string]string{"note": "x"},
		Role: "iam", ImageRepository: "ghcr.io/hanzoai/iam", ImageTag: "v1.2.3", Replicas: &three,
		Phase: "Running", ReadyReplicas: 2, AvailableReplicas: 2, ObservedGen: 3,
		Conditions:    []model.Condition{{Type: "Ready", Status: "False", Reason: "NotReady", Message: "2/3 replicas ready"}},
		Endpoints:     []string{"https://iam.hanzo.ai"},
		LastGoodImage: "ghcr.io/hanzoai/iam:v1.2.2",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DecodeApp (-want +got):\n%s", diff)
	}
}

func TestDecodeAppMalformed(t *testing.T) {
	t.Parallel()
	meta := `"apiVersion":"hanzo.ai/v1","kind":"App","metadata":{"name":"bad","namespace":"hanzo"}`
	cases := []struct {
		name, obj string
		wantErr   string // substring of one DecodeError
		check     func(*testing.T, model.AppObject)
	}{
		{"missing spec", `{` + meta + `}`, "spec: missing", nil},
		{"spec a string", `{` + meta + `,"spec":"oops"}`, "spec: want an object, got string", nil},
		{"image a string", `{` + meta + `,"spec":{"image":"ghcr.io/hanzoai/iam:v1"}}`, "spec.image: want an object, got string", nil},
		{"tag a number", `{` + meta + `,"spec":{"image":{"repository":"r/x","tag":1.5}}}`, "spec.image.tag: want a string, got number",
			func(t *testing.T, a model.AppObject) {
				if a.ImageRepository != "r/x" || a.ImageTag != "" {
					t.Errorf("repository %q tag %q", a.ImageRepository, a.ImageTag)
				}
			}},
		{"replicas a word", `{` + meta + `,"spec":{"replicas":"three"}}`, "spec.replicas: want a number, got string", nil},
		{"replicas negative", `{` + meta + `,"spec":{"replicas":-1}}`, "spec.replicas: want a whole number", nil},
		{"replicas huge", `{` + meta + `,"spec":{"replicas":1e300}}`, "spec.replicas: want a whole number", nil},
		{"replicas fraction", `{` + meta + `,"spec":{"replicas":1.5}}`, "spec.replicas: want a whole number", nil},
		{"huge tag", `{` + meta + `,"spec":{"image":{"repository":"r/x","tag":"` + strings.Repeat("v", 100000) + `"}}}`, "spec.image.tag: too long",
			func(t *testing.T, a model.AppObject) {
				if len(a.ImageTag) > maxField {
					t.Errorf("tag kept %d bytes", len(a.ImageTag))
				}
			}},
		{"labels not strings", `{"kind":"App","metadata":{"name":"bad","namespace":"hanzo","labels":{"a":1}},"spec":{}}`, "metadata.labels.a: want a string", nil},
		{"conditions an object", `{` + meta + `,"spec":{},"status":{"conditions":{"type":"Ready"}}}`, "status.conditions: want an array", nil},
		{"condition a number", `{` + meta + `,"spec":{},"status":{"conditions":[7]}}`, "status.conditions[0]: want an object", nil},
		{"condition type a number", `{` + meta + `,"spec":{},"status":{"conditions":[{"type":"Ready"},{"type":7,"status":"True"}]}}`,
			"status.conditions[1].type: want a string, got number", nil},
		{"condition message too long", `{` + meta + `,"spec":{},"status":{"conditions":[{"type":"Ready","message":"` + strings.Repeat("m", 600) + `"}]}}`,
			"status.conditions[0].message: too long (600 bytes)", func(t *testing.T, a model.AppObject) {
				if len(a.Conditions) != 1 || a.Conditions[0].Type != "Ready" || len(a.Conditions[0].Message) != maxField {
					t.Errorf("conditions %+v", a.Conditions)
				}
			}},
		{"status phase a list", `{` + meta + `,"spec":{},"status":{"phase":["Running"]}}`, "status.phase: want a string, got array", nil},
		{"bad timestamp", `{"kind":"App","metadata":{"name":"bad","namespace":"hanzo","creationTimestamp":"yesterday"},"spec":{}}`, "metadata.creationTimestamp: not RFC 3339", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var obj map[string]any
			if err := json.Unmarshal([]byte(tc.obj), &obj); err != nil {
				t.Fatal(err)
			}
			a := DecodeApp("c", obj)
			if a.Name != "bad" {
				t.Errorf("name %q, want bad: a malformed App keeps its identity", a.Name)
			}
			if !containsSub(a.DecodeErrors, tc.wantErr) {
				t.Errorf("DecodeErrors %q lack %q", a.DecodeErrors, tc.wantErr)
			}
			if tc.check != nil {
				tc.check(t, a)
			}
			// The decode error reaches the row as a malformed problem that
			// names it, not merely "some problem" (a missing workload would be one).
			row := model.Build(a, nil, model.Release{State: model.ReleaseOff}, time.Unix(0, 0))
			named := false
			for _, p := range row.Problems {
				if p.Kind == model.ProblemMalformed && strings.Contains(p.Text, tc.wantErr) {
					named = true
				}
			}
			if !named {
				t.Errorf("row problems %v lack a malformed problem naming %q", row.Problems, tc.wantErr)
			}
		})
	}
}

func containsSub(ss []string, sub string) bool {
	for _, s := range ss {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func FuzzDecodeApp(f *testing.F) {
	f.Add(goodApp)
	f.Add(`{"kind":"App","metadata":{"name":"x","namespace":"hanzo"},"spec":{"image":"a","replicas":"three"}}`)
	f.Add(`{"kind":"Service","metadata":{"name":7},"spec":null,"status":{"conditions":[null,{"type":1}]}}`)
	f.Add(`{"metadata":{"labels":{"a":{"b":"c"}}},"spec":{"image":{"tag":1e400}}}`)
	f.Fuzz(func(t *testing.T, s string) {
		u := &unstructured.Unstructured{}
		if err := runtime.DecodeInto(unstructured.UnstructuredJSONScheme, []byte(s), u); err != nil {
			var obj map[string]any
			if json.Unmarshal([]byte(s), &obj) != nil {
				return
			}
			u.Object = obj
		}
		a := DecodeApp("c", u.Object)
		if a.Replicas != nil && *a.Replicas < 0 {
			t.Errorf("negative replicas %d", *a.Replicas)
		}
		for _, v := range []string{a.Name, a.ImageTag, a.ImageRepository, a.Role, a.Phase} {
			if len(v) > maxField {
				t.Errorf("field of %d bytes kept", len(v))
			}
		}
		_ = model.Build(a, nil, model.Release{State: model.ReleasePending}, time.Unix(0, 0))
		e, err := TransformApp("c")(u)
		if err != nil {
			t.Fatal(err)
		}
		if ae, ok := e.(*AppEntry); !ok || ae.Name != u.GetName() {
			t.Errorf("entry %T name mismatch", e)
		}
	})
}

func BenchmarkDecodeApp(b *testing.B) {
	u := decodeJSON(b, goodApp)
	b.ReportAllocs()
	for b.Loop() {
		_ = DecodeApp("prod", u.Object)
	}
}

// The 64-entry cap keeps the keys the board reads (hanzo.ai/org first of
// all), whatever map order says, and drops the same others every time.
func TestDecodeLabelCapKeepsKnownKeys(t *testing.T) {
	labels := map[string]any{"hanzo.ai/org": "weird_org", "app.kubernetes.io/name": "iam"}
	for i := range 100 {
		labels[fmt.Sprintf("aa.example.com/k%03d", i)] = "v"
	}
	obj := map[string]any{"apiVersion": "hanzo.ai/v1", "kind": "App",
		"metadata": map[string]any{"name": "iam", "namespace": "hanzo", "labels": labels,
			"annotations": map[string]any{model.KubectlRestartedAtAnnotation: "x", "a.example.com/b": "y"}}}
	for range 20 { // map order varies between runs; the result must not
		a := DecodeApp("c", obj)
		if len(a.Labels) != 64 || a.Labels["hanzo.ai/org"] != "weird_org" || a.Labels["app.kubernetes.io/name"] != "iam" ||
			a.Labels["aa.example.com/k061"] != "v" || a.Labels["aa.example.com/k062"] != "" {
			t.Fatalf("capped labels: %d kept, org %q, k061 %q, k062 %q", len(a.Labels), a.Labels["hanzo.ai/org"],
				a.Labels["aa.example.com/k061"], a.Labels["aa.example.com/k062"])
		}
	}
}
