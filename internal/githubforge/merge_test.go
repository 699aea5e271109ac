package githubforge

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/internal/testing/githubtest"
)

// A merge is git's: the base moves to a merge commit of the base and the
// pull request's head, and the pull request reads merged with that SHA.
func TestMergeIsARealMerge(t *testing.T) {
	s := newUniverse(t, githubtest.Options{})
	f := newForge(t, s, "gho_writer")
	ctx := context.Background()
	pr, err := f.Propose(ctx, change(t, f))
	if err != nil {
		t.Fatal(err)
	}
	base := s.Head("main")
	merged, err := f.Merge(ctx, universe, pr.Number, pr.HeadSHA)
	if err != nil {
		t.Fatal(err)
	}
	if merged.State != promote.PRMerged || merged.MergeSHA == "" || merged.MergeSHA != s.Head("main") || merged.MergedAt.IsZero() {
		t.Fatalf("after the merge: %+v, main at %s", merged, s.Head("main"))
	}
	if got := s.Git("rev-list", "--parents", "-n1", merged.MergeSHA); got != merged.MergeSHA+" "+base+" "+pr.HeadSHA {
		t.Errorf("merge commit and parents %q, want the base then the head", got)
	}
	if s.Git("show", "main:"+iamPath) != s.Git("show", pr.HeadSHA+":"+iamPath) {
		t.Error("main does not hold the promoted file")
	}
	again, err := f.PullRequest(ctx, universe, pr.Number)
	if err != nil || again.State != promote.PRMerged || again.MergeSHA != merged.MergeSHA {
		t.Errorf("read back: %+v, %v", again, err)
	}
}

// A repository that allows squash merges only is merged so: the base moves
// to one new commit holding the change.
func TestMergeSquashesWhereMergeCommitsAreNotAllowed(t *testing.T) {
	s := newUniverse(t, githubtest.Options{MergeMethods: []string{"squash"}})
	f := newForge(t, s, "gho_writer")
	ctx := context.Background()
	pr, err := f.Propose(ctx, change(t, f))
	if err != nil {
		t.Fatal(err)
	}
	base := s.Head("main")
	merged, err := f.Merge(ctx, universe, pr.Number, pr.HeadSHA)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Git("rev-list", "--parents", "-n1", "main"); merged.MergeSHA == "" || got != merged.MergeSHA+" "+base {
		t.Errorf("main %q after the merge %+v, want one commit on %s", got, merged, base)
	}
	if s.Git("diff", pr.HeadSHA, "main") != "" {
		t.Error("main's tree is not the pull request's")
	}
}

// Merge is bound to the head the person saw: a head moved since is
// GitHub's refusal, in its words, and nothing is merged.
func TestMergeRefusesAMovedHead(t *testing.T) {
	s := newUniverse(t, githubtest.Options{})
	f := newForge(t, s, "gho_writer")
	ctx := context.Background()
	pr, err := f.Propose(ctx, change(t, f))
	if err != nil {
		t.Fatal(err)
	}
	base := s.Head("main")
	s.Push(pr.Branch, map[string]string{"extra.txt": "pushed later\n"}, "a later push")
	_, err = f.Merge(ctx, universe, pr.Number, pr.HeadSHA)
	refused(t, err, "Head branch was modified. Review and try the merge again.")
	if s.Head("main") != base {
		t.Error("merged anyway")
	}
}

// A protected base: merging without the required review is GitHub's 405,
// returned as is; proposing still works, as it never writes the base.
func TestProtectedBaseRefusesTheMergeAsGitHubSaysIt(t *testing.T) {
	s := newUniverse(t, githubtest.Options{})
	s.Protect("main", githubtest.Protection{RequiredReviews: 1})
	f := newForge(t, s, "gho_writer")
	ctx := context.Background()
	pr, err := f.Propose(ctx, change(t, f))
	if err != nil {
		t.Fatal(err)
	}
	base := s.Head("main")
	_, err = f.Merge(ctx, universe, pr.Number, pr.HeadSHA)
	refused(t, err, "At least 1 approving review is required by reviewers with write access.")
	if err.Error() != "refused: At least 1 approving review is required by reviewers with write access." {
		t.Errorf("GitHub's refusal not as is: %q", err)
	}
	if s.Head("main") != base {
		t.Error("the protected base moved")
	}
	s.Approve(pr.Number)
	if merged, err := f.Merge(ctx, universe, pr.Number, pr.HeadSHA); err != nil || merged.State != promote.PRMerged {
		t.Errorf("with the review: %+v, %v", merged, err)
	}
}

// A pull request closed on GitHub without a merge reads closed, and cannot be merged.
func TestClosedPullRequest(t *testing.T) {
	s := newUniverse(t, githubtest.Options{})
	f := newForge(t, s, "gho_writer")
	ctx := context.Background()
	pr, err := f.Propose(ctx, change(t, f))
	if err != nil {
		t.Fatal(err)
	}
	s.ClosePull(pr.Number)
	got, err := f.PullRequest(ctx, universe, pr.Number)
	if err != nil || got.State != promote.PRClosed || got.ClosedAt.IsZero() {
		t.Errorf("closed: %+v, %v", got, err)
	}
	_, err = f.Merge(ctx, universe, pr.Number, pr.HeadSHA)
	refused(t, err, "Pull Request is not mergeable")
	open, err := f.OpenPullRequests(ctx, universe, "driftboard/")
	if err != nil || len(open) != 0 {
		t.Errorf("open pull requests after the close: %+v, %v", open, err)
	}
}

// The pull requests in flight are found again by their branch prefix.
func TestOpenPullRequestsByPrefix(t *testing.T) {
	s := newUniverse(t, githubtest.Options{})
	f := newForge(t, s, "gho_writer")
	ctx := context.Background()
	pr, err := f.Propose(ctx, change(t, f))
	if err != nil {
		t.Fatal(err)
	}
	other := change(t, f)
	other.Branch, other.Title = "renovate/iam", "Update iam"
	if _, err := f.Propose(ctx, other); err != nil {
		t.Fatal(err)
	}
	open, err := f.OpenPullRequests(ctx, universe, "driftboard/")
	if err != nil {
		t.Fatal(err)
	}
	c := change(t, f)
	if len(open) != 1 || open[0].Number != pr.Number || open[0].Branch != pr.Branch || open[0].Checks != promote.ChecksNone || open[0].Body != c.Body || c.Body == "" {
		t.Errorf("open driftboard pull requests (a set's body names its Apps): %+v", open)
	}
}

// Merged promotions are found again by their branch prefix and merge time,
// the newest first; one closed unmerged, or on another prefix, is not.
func TestMergedPullRequestsByPrefixAndTime(t *testing.T) {
	s := newUniverse(t, githubtest.Options{})
	f := newForge(t, s, "gho_writer")
	ctx := context.Background()
	propose := func(branch string, files ...string) promote.PullRequest {
		t.Helper()
		c := change(t, f, files...)
		c.Branch = branch
		pr, err := f.Propose(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		return pr
	}
	merge := func(pr promote.PullRequest) {
		t.Helper()
		if _, err := f.Merge(ctx, universe, pr.Number, pr.HeadSHA); err != nil {
			t.Fatal(err)
		}
	}
	since := time.Now().Add(-time.Minute)
	older := propose("driftboard/prod/iam-v1.5.0", iamPath)
	merge(older)
	renovate := propose("renovate/kms", kmsPath)
	closed := propose("driftboard/prod/kms-v2.1.0", kmsPath)
	s.ClosePull(closed.Number)
	merge(renovate)
	newer := propose("driftboard/prod/kms-v2.1.0-b", kmsPath)
	merge(newer)
	got, err := f.MergedPullRequests(ctx, universe, "driftboard/", since)
	if err != nil {
		t.Fatal(err)
	}
	var numbers []int
	for _, pr := range got {
		numbers = append(numbers, pr.Number)
		if pr.State != promote.PRMerged || pr.MergeSHA == "" || pr.MergedAt.IsZero() || pr.Body == "" {
			t.Errorf("#%d: %+v", pr.Number, pr)
		}
	}
	if want := []int{newer.Number, older.Number}; !slices.Equal(numbers, want) {
		t.Errorf("merged driftboard pull requests: %v, want %v (newest first)", numbers, want)
	}
	if got, err := f.MergedPullRequests(ctx, universe, "driftboard/", time.Now().Add(time.Minute)); err != nil || len(got) != 0 {
		t.Errorf("merged since a minute ahead: %+v, %v", got, err)
	}
}
