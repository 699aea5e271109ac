package githubforge

import (
	"context"
	"testing"

	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/internal/testing/githubtest"
)

// The head's checks combine commit statuses and check runs (GitHub Actions
// reports only the latter), and a commit with neither is "none", not the
// "pending" GitHub's combined status says for it.
func TestChecksOfTheHead(t *testing.T) {
	s := newUniverse(t, githubtest.Options{})
	f := newForge(t, s, "gho_writer")
	ctx := context.Background()
	pr, err := f.Propose(ctx, change(t, f))
	if err != nil {
		t.Fatal(err)
	}
	if pr.Checks != promote.ChecksNone {
		t.Errorf("a new head: %s, want none", pr.Checks)
	}
	for _, step := range []struct {
		name string
		set  func()
		want promote.Checks
	}{
		{"a status pending", func() { s.SetStatus(pr.HeadSHA, "ci/lint", "pending") }, promote.ChecksPending},
		{"the status passed", func() { s.SetStatus(pr.HeadSHA, "ci/lint", "success") }, promote.ChecksPassed},
		{"a check run in progress", func() { s.SetCheckRun(pr.HeadSHA, "build", "in_progress", "") }, promote.ChecksPending},
		{"the check run failed", func() { s.SetCheckRun(pr.HeadSHA, "build", "completed", "failure") }, promote.ChecksFailed},
		{"the check run passed on a rerun", func() { s.SetCheckRun(pr.HeadSHA, "build", "completed", "success") }, promote.ChecksPassed},
		{"a skipped run does not fail", func() { s.SetCheckRun(pr.HeadSHA, "deploy", "completed", "skipped") }, promote.ChecksPassed},
		{"a status errored", func() { s.SetStatus(pr.HeadSHA, "ci/lint", "error") }, promote.ChecksFailed},
	} {
		step.set()
		got, err := f.PullRequest(ctx, universe, pr.Number)
		if err != nil {
			t.Fatal(err)
		}
		if got.Checks != step.want {
			t.Errorf("%s: checks %s, want %s", step.name, got.Checks, step.want)
		}
	}
}

// Reads: the files under a directory, and one file's bytes and blob.
func TestTreeAndReadFile(t *testing.T) {
	s := newUniverse(t, githubtest.Options{})
	f := newForge(t, s, "gho_reader")
	ctx := context.Background()
	files, err := f.Tree(ctx, universe, "main", "infra/k8s/operator/crs")
	if err != nil || len(files) != 2 || files[0] != iamPath || files[1] != kmsPath {
		t.Errorf("Tree = %q, %v", files, err)
	}
	s.Push("release/2026", map[string]string{"infra/k8s/operator/crs/new.yaml": "kind: App\n"}, "a release branch")
	if files, err := f.Tree(ctx, universe, "release/2026", "infra/k8s/operator/crs/"); err != nil || len(files) != 3 {
		t.Errorf("Tree at a branch with a slash = %q, %v", files, err)
	}
	data, sha, err := f.ReadFile(ctx, universe, "main", iamPath)
	if err != nil || string(data) != iamCR || sha != s.Git("rev-parse", "main:"+iamPath) || sha != blobSHA(data) {
		t.Errorf("ReadFile = %q, %s, %v", data, sha, err)
	}
	_, _, err = f.ReadFile(ctx, universe, "main", "infra/k8s/operator/crs/missing.yaml")
	refused(t, err, "not found")
}
