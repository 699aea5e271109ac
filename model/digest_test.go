package model

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCompareDigestsTakesRegistryDigests(t *testing.T) {
	t.Parallel()
	a, b := "sha256:"+strings.Repeat("a", 64), "sha256:"+strings.Repeat("b", 64)
	got := CompareDigests(a, []string{b, a, b})
	want := DigestCheck{TagDigest: a, Running: []string{a, b}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("CompareDigests (-want +got):\n%s", diff)
	}
	if got.Note() == "" {
		t.Fatal("pods on two digests, one of them not the tag's: want a note")
	}
	// The same bare digests given as imageIDs are local IDs to CheckDigests.
	if c := CheckDigests(a, []string{b}); c.Unknown != 1 || len(c.Running) != 0 {
		t.Fatalf("CheckDigests on a bare ID = %+v, want it counted unknown", c)
	}
	if c := CheckDigests(a, []string{"ghcr.io/x/y@" + a}); c.Note() != "" || len(c.Running) != 1 {
		t.Fatalf("pods on the tag's digest = %+v (note %q), want agreement", c, c.Note())
	}
}
