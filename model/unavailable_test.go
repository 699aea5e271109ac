package model

import (
	"fmt"
	"testing"
)

func TestNotAvailableSaysWhatAndWhy(t *testing.T) {
	err := fmt.Errorf("open: %w", NotAvailable("YAML", "the board has no fleet"))
	if !IsNotAvailable(err) {
		t.Fatalf("%v: not recognised through the wrap", err)
	}
	if want := "open: YAML: not available from this source (the board has no fleet)"; err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}
	if IsNotAvailable(fmt.Errorf("forbidden")) {
		t.Error("any error counted as not available")
	}
}
