package keymap

import (
	"reflect"
	"slices"
	"testing"
)

// Every binding of the key map has an action name, once.
func TestKeyActionsCoverTheKeyMap(t *testing.T) {
	t.Parallel()
	names := Actions()
	if n := reflect.TypeFor[Map]().NumField(); len(names) != n {
		t.Fatalf("Actions has %d names for %d bindings: %v", len(names), n, names)
	}
	if dup := len(names) - len(slices.Compact(slices.Sorted(slices.Values(names)))); dup != 0 {
		t.Errorf("duplicate action names: %v", names)
	}
	k := New()
	for _, a := range k.actions() {
		if len(a.b.Keys()) == 0 {
			t.Errorf("action %s has no binding in the key map", a.name)
		}
	}
}
