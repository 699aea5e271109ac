package githubtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-github/v84/github"
)

// spyTB keeps the server's cleanups and errors so a test can run them and
// read what the server would have reported.
type spyTB struct {
	testing.TB
	cleanups []func()
	errors   []string
}

func (s *spyTB) Cleanup(f func()) { s.cleanups = append(s.cleanups, f) }
func (s *spyTB) Errorf(format string, args ...any) {
	s.errors = append(s.errors, fmt.Sprintf(format, args...))
}

func (s *spyTB) end() {
	for i := len(s.cleanups) - 1; i >= 0; i-- {
		s.cleanups[i]()
	}
}

func client(t testing.TB, s *Server, token string) *github.Client {
	c, err := github.NewClient(s.Client()).WithEnterpriseURLs(s.APIURL(), s.APIURL())
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		c = c.WithAuthToken(token)
	}
	return c
}

// An endpoint the server does not implement is answered 404 and named when
// the test ends, so a client's new call cannot pass unnoticed.
func TestUnimplementedEndpointFailsTheTest(t *testing.T) {
	spy := &spyTB{TB: t}
	s := New(spy, Options{Files: map[string]string{"README.md": "universe\n"}})
	s.AddToken("t", "octocat", Write)
	c := client(t, s, "t")
	ctx := context.Background()
	if _, _, err := c.Repositories.Get(ctx, "hanzoai", "universe"); err != nil {
		t.Fatalf("an implemented endpoint: %v", err)
	}
	_, resp, err := c.Repositories.ListBranches(ctx, "hanzoai", "universe", nil)
	if err == nil || resp.StatusCode != 404 {
		t.Fatalf("ListBranches: %v, want a 404", err)
	}
	spy.end()
	if len(spy.errors) != 1 || !strings.Contains(spy.errors[0], "GET /api/v3/repos/hanzoai/universe/branches") {
		t.Errorf("reported %q, want the unimplemented call named", spy.errors)
	}
}

// The repository the API writes is the one git serves: a commit made
// through the Git Data API is in a clone.
func TestGitDataAPIWritesWhatACloneSees(t *testing.T) {
	s := New(t, Options{Files: map[string]string{"infra/k8s/operator/crs/iam.yaml": "tag: v1\n"}})
	s.AddToken("t", "octocat", Write)
	c := client(t, s, "t")
	ctx := context.Background()
	base := s.Head("main")
	tree, _, err := c.Git.CreateTree(ctx, "hanzoai", "universe", base,
		[]*github.TreeEntry{{Path: github.Ptr("infra/k8s/operator/crs/iam.yaml"), Mode: github.Ptr("100644"), Type: github.Ptr("blob"), Content: github.Ptr("tag: v2\n")}})
	if err != nil {
		t.Fatal(err)
	}
	commit, _, err := c.Git.CreateCommit(ctx, "hanzoai", "universe", github.Commit{Message: github.Ptr("v2"), Tree: tree,
		Parents: []*github.Commit{{SHA: github.Ptr(base)}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Git.CreateRef(ctx, "hanzoai", "universe", github.CreateRef{Ref: "refs/heads/up", SHA: commit.GetSHA()}); err != nil {
		t.Fatal(err)
	}
	if diff := s.Git("diff", "--numstat", "main", "up"); diff != "1\t1\tinfra/k8s/operator/crs/iam.yaml" {
		t.Errorf("diff main..up: %q", diff)
	}
	work := s.Clone()
	data, err := os.ReadFile(filepath.Join(work, "infra/k8s/operator/crs/iam.yaml"))
	if err != nil || string(data) != "tag: v1\n" {
		t.Errorf("clone of main: %q, %v", data, err)
	}
	if s.Git("log", "-1", "--format=%an", "up") != "octocat" {
		t.Error("the commit is not the token's user's")
	}
}

// Writes are refused as GitHub refuses them: to a protected branch (422),
// without push access (403), without a token (401); and none moves a ref.
func TestWritesRefusedAsGitHubDoes(t *testing.T) {
	s := New(t, Options{Files: map[string]string{"README.md": "universe\n"}})
	s.AddToken("w", "octocat", Write)
	s.AddToken("r", "watcher", Read)
	s.Protect("main", Protection{RequiredReviews: 1})
	s.Protect("stable", Protection{}) // a rule for a branch not yet there
	ctx := context.Background()
	head := s.Head("main")
	for _, tc := range []struct {
		token, ref string
		code       int
	}{
		{"w", "refs/heads/main", 422},
		{"w", "refs/heads/stable", 422},
		{"w", "refs/heads/release", 201},
		{"r", "refs/heads/other", 403},
		{"", "refs/heads/other", 401},
		{"w", "refs/heads/release", 422}, // exists now
	} {
		_, resp, err := client(t, s, tc.token).Git.CreateRef(ctx, "hanzoai", "universe", github.CreateRef{Ref: tc.ref, SHA: head})
		if resp == nil || resp.StatusCode != tc.code {
			t.Errorf("token %q creating %s: %v, want %d", tc.token, tc.ref, err, tc.code)
		}
	}
	if s.Head("other") != "" || s.Head("stable") != "" || s.Head("main") != head {
		t.Error("a refused write moved a ref")
	}
}

// A person closes a pull request on GitHub: PATCH state=closed.
func TestClosePullRequestByEdit(t *testing.T) {
	s := New(t, Options{Files: map[string]string{"README.md": "universe\n"}})
	s.AddToken("w", "octocat", Write)
	s.Push("topic", map[string]string{"README.md": "more\n"}, "topic")
	c := client(t, s, "w")
	ctx := context.Background()
	pr, _, err := c.PullRequests.Create(ctx, "hanzoai", "universe", &github.NewPullRequest{Title: github.Ptr("Topic"),
		Head: github.Ptr("topic"), Base: github.Ptr("main")})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.PullRequests.Edit(ctx, "hanzoai", "universe", pr.GetNumber(), &github.PullRequest{State: github.Ptr("closed")}); err != nil {
		t.Fatal(err)
	}
	got, _, err := c.PullRequests.Get(ctx, "hanzoai", "universe", pr.GetNumber())
	if err != nil || got.GetState() != "closed" || got.GetMerged() || got.ClosedAt == nil {
		t.Errorf("after the edit: state %q merged %v closed at %v, %v", got.GetState(), got.GetMerged(), got.ClosedAt, err)
	}
	open, _, err := c.PullRequests.List(ctx, "hanzoai", "universe", &github.PullRequestListOptions{State: "open"})
	if err != nil || len(open) != 0 {
		t.Errorf("open pull requests: %d, %v", len(open), err)
	}
}
