package model

import "testing"

// TestRowSharesEndpoints: a row holds its App's endpoint list, not a copy
// per row, and an append to the row's list cannot write into the App's.
func TestRowSharesEndpoints(t *testing.T) {
	t.Parallel()
	a := baseApp()
	a.Endpoints = make([]string, 1, 4)
	a.Endpoints[0] = "https://iam.hanzo.ai"
	v := Build(a, baseWorkload(), foundRelease(), t0)
	if len(v.Endpoints) != 1 || &v.Endpoints[0] != &a.Endpoints[0] {
		t.Fatalf("row endpoints %v are a copy of the App's", v.Endpoints)
	}
	_ = append(v.Endpoints, "https://evil.example")
	if got := a.Endpoints[:2][1]; got != "" {
		t.Errorf("an append to the row's list wrote %q into the App's", got)
	}
}
