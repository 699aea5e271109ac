package kube

import (
	"testing"
	"unsafe"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
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

// sameBytes says whether two strings share their backing bytes (interned).
func sameBytes(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }
