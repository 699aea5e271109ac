package ui

import (
	"strings"
	"testing"
)

// Pods that run another tag than the declared one on purpose (rolled out,
// not rolling) run another digest: the detail says which tags the digests
// are of and claims no mismatch.
func TestDetailDigestsOfAnotherTagAreNotCompared(t *testing.T) {
	v := app{ns: "hanzo", name: "web", declared: "v1.3.0", running: "v1.2.0", latest: "v1.3.0", ready: 2, updated: 2, assets: 1}.build()
	v.Release.TagDigest = dg('b')
	got := goldenDetailOfWeb(t, v, dg('a'))
	checkGolden(t, "detail_digests_othertag_w100", got)
	if !strings.Contains(got, "digests not compared: the tag digest is the declared v1.3.0's, the pods run v1.2.0") ||
		strings.Contains(got, "≠ tag digest") || strings.Contains(got, "✓ the pods run") {
		t.Errorf("digests of another tag should be named, not compared:\n%s", got)
	}
}
