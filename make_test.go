package main

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

// make build (and so make demo) links the same binary from the same tree:
// the build date in the version stamp is the last commit's, not the clock's,
// so a second run finds the link up to date instead of relinking.
func TestMakeBuildStampIsStable(t *testing.T) {
	stamp := func() string {
		t.Helper()
		out, err := exec.Command("make", "-n", "build").CombinedOutput()
		if err != nil {
			t.Fatalf("make -n build: %v\n%s", err, out)
		}
		return string(out)
	}
	first := stamp()
	time.Sleep(1100 * time.Millisecond) // the clock's seconds move on
	if second := stamp(); second != first {
		t.Errorf("make build's command changes from run to run:\n%s\n%s", first, second)
	}
	commit, err := exec.Command("git", "log", "-1", "--format=%cI").Output()
	if err != nil {
		t.Fatal(err)
	}
	when, err := time.Parse(time.RFC3339, strings.TrimSpace(string(commit)))
	if err != nil {
		t.Fatal(err)
	}
	if want := "cli.date=" + when.UTC().Format("2006-01-02T15:04:05Z"); !strings.Contains(first, want) {
		t.Errorf("make build does not stamp the last commit's date (%s):\n%s", want, first)
	}
}
