package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// get prints the registry truth when it was read: the tag's digest, one
// running digest a line, and the verdict; nothing when nothing was read.
func TestWriteDetailDigests(t *testing.T) {
	now := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	a := "sha256:" + strings.Repeat("a", 64)
	b := "sha256:" + strings.Repeat("b", 64)
	r := &model.AppView{App: "web", Release: model.Release{State: model.ReleaseFound, TagDigest: b},
		Workload: model.WorkloadView{Found: true, Digests: []string{a, b}}}
	var out strings.Builder
	if err := writeDetail(&out, r, now); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(out.String(), "\n") {
		lines = append(lines, strings.Join(strings.Fields(l), " "))
	}
	got := strings.Join(lines, "\n")
	for _, want := range []string{
		"\nTag digest: " + b + "\n", "\nRunning digests: " + a + "\n" + b + "\n",
		"\nDigests: running digest ≠ tag digest (running sha256:aaaaaaaaaaaa, sha256:bbbbbbbbbbbb, tag sha256:bbbbbbbbbbbb)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("get output lacks %q:\n%s", want, out.String())
		}
	}

	// Pods on another tag than the declared one: which tags, no verdict.
	r.DeclaredTag, r.RunningTag, r.Workload.Digests = "v1.3.0", "v1.2.0", []string{a}
	out.Reset()
	if err := writeDetail(&out, r, now); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.Contains(got, "digests not compared: the tag digest is the declared v1.3.0's, the pods run v1.2.0") || strings.Contains(got, "≠") {
		t.Errorf("get compares digests of two tags:\n%s", got)
	}

	r.Release.TagDigest, r.Workload.Digests = "", nil
	out.Reset()
	if err := writeDetail(&out, r, now); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "igest") {
		t.Errorf("digest lines without digests:\n%s", out.String())
	}
}
