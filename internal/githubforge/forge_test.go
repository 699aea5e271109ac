package githubforge

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/internal/testing/githubtest"
)

const (
	iamPath = "infra/k8s/operator/crs/iam.yaml"
	kmsPath = "infra/k8s/operator/crs/kms.yaml"
	iamCR   = `# IAM, the identity service
apiVersion: apps.hanzo.ai/v1
kind: App
metadata:
  name: iam
  namespace: hanzo
spec:
  image:
    repository: ghcr.io/hanzoai/iam
    tag: v1.4.0 # bumped by promotions
`
	kmsCR = "apiVersion: apps.hanzo.ai/v1\nkind: App\nmetadata:\n  name: kms\nspec:\n  image:\n    tag: \"2.0.1\"\n"
)

var universe = promote.Repo{Owner: "hanzoai", Name: "universe"}

func newUniverse(t *testing.T, opts githubtest.Options) *githubtest.Server {
	t.Helper()
	opts.Files = map[string]string{iamPath: iamCR, kmsPath: kmsCR, "README.md": "# universe\n"}
	s := githubtest.New(t, opts)
	s.AddToken("gho_writer", "octocat", githubtest.Write)
	s.AddToken("gho_reader", "watcher", githubtest.Read)
	return s
}

// newForge is the Forge against s with token, none of this machine's own
// tokens in reach.
func newForge(t *testing.T, s *githubtest.Server, token string) *Forge {
	t.Helper()
	f, err := New(Config{APIURL: s.APIURL(), Token: token, HTTPClient: s.Client(),
		Getenv: func(string) string { return "" }, TokenStore: func(string) (string, string) { return "", "" }})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// change bumps iam's tag, reading the file as the use case would.
func change(t *testing.T, f *Forge, files ...string) promote.Change {
	t.Helper()
	if len(files) == 0 {
		files = []string{iamPath}
	}
	c := promote.Change{Repo: universe, Base: "main", Branch: "driftboard/prod/iam-v1.5.0", Title: "Promote iam to v1.5.0",
		Body: "declared v1.4.0, latest v1.5.0", Message: "iam: promote to v1.5.0\n"}
	for _, p := range files {
		data, sha, err := f.ReadFile(context.Background(), universe, "main", p)
		if err != nil {
			t.Fatal(err)
		}
		next := strings.Replace(string(data), "v1.4.0", "v1.5.0", 1)
		next = strings.Replace(next, `"2.0.1"`, `"2.1.0"`, 1)
		c.Files = append(c.Files, promote.FileEdit{Path: p, OldSHA: sha, Content: []byte(next)})
	}
	return c
}

func refused(t *testing.T, err error, want string) {
	t.Helper()
	var r *promote.Refused
	if !errors.As(err, &r) {
		t.Fatalf("err = %v, want a refusal", err)
	}
	if !strings.Contains(r.Reason, want) {
		t.Errorf("refused %q, want it to say %q", r.Reason, want)
	}
}

func TestProposeWritesOneCommitWithExactlyTheFiles(t *testing.T) {
	s := newUniverse(t, githubtest.Options{})
	f := newForge(t, s, "gho_writer")
	ctx := context.Background()
	if login, err := f.Login(ctx); err != nil || login != "octocat" {
		t.Fatalf("Login = %q, %v", login, err)
	}
	base := s.Head("main")
	pr, err := f.Propose(ctx, change(t, f))
	if err != nil {
		t.Fatal(err)
	}
	if pr.Reused || pr.State != promote.PROpen || pr.Number != 1 || pr.Branch != "driftboard/prod/iam-v1.5.0" || pr.Base != "main" {
		t.Errorf("pull request %+v", pr)
	}
	if s.Head("main") != base {
		t.Error("the base branch moved")
	}
	if got := s.Git("rev-list", "--parents", "main..driftboard/prod/iam-v1.5.0"); got != pr.HeadSHA+" "+base {
		t.Errorf("commits on the branch (with parents): %q, want one, %s on %s", got, pr.HeadSHA, base)
	}
	diff := s.Git("diff", "-U0", "main", "driftboard/prod/iam-v1.5.0")
	changed := []string{}
	for _, l := range strings.Split(diff, "\n") {
		if (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")) && !strings.HasPrefix(l, "+++") && !strings.HasPrefix(l, "---") {
			changed = append(changed, l)
		}
	}
	want := []string{"-    tag: v1.4.0 # bumped by promotions", "+    tag: v1.5.0 # bumped by promotions"}
	if strings.Join(changed, "\n") != strings.Join(want, "\n") {
		t.Errorf("diff main..branch:\n%s\nwant exactly the tag line", diff)
	}
	if s.Git("log", "-1", "--format=%an %s", pr.HeadSHA) != "octocat iam: promote to v1.5.0" {
		t.Error("the commit is not the engineer's, or not the change's message")
	}
}

// A marked set is one commit holding every file.
func TestProposeASetIsOneCommit(t *testing.T) {
	s := newUniverse(t, githubtest.Options{})
	f := newForge(t, s, "gho_writer")
	pr, err := f.Propose(context.Background(), change(t, f, iamPath, kmsPath))
	if err != nil {
		t.Fatal(err)
	}
	if n := s.Git("rev-list", "--count", "main.."+pr.HeadSHA); n != "1" {
		t.Errorf("%s commits, want 1", n)
	}
	if got := s.Git("diff", "--name-only", "main", pr.HeadSHA); got != iamPath+"\n"+kmsPath {
		t.Errorf("files changed: %q", got)
	}
}

// The same change proposed again finds the open pull request and writes
// nothing.
func TestProposeReusesTheOpenPullRequest(t *testing.T) {
	s := newUniverse(t, githubtest.Options{})
	f := newForge(t, s, "gho_writer")
	ctx := context.Background()
	c := change(t, f)
	first, err := f.Propose(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	writes := len(s.Writes())
	again, err := f.Propose(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Reused || again.Number != first.Number || again.HeadSHA != first.HeadSHA {
		t.Errorf("second proposal %+v, want pull request #%d reused", again, first.Number)
	}
	if w := s.Writes(); len(w) != writes {
		t.Errorf("the second proposal wrote: %+v", w[writes:])
	}
}

// A branch left by an attempt that failed before its pull request is used
// when it holds the change; with anything else on it, refused.
func TestProposeResumesItsOwnBranchOnly(t *testing.T) {
	s := newUniverse(t, githubtest.Options{})
	f := newForge(t, s, "gho_writer")
	c := change(t, f)
	s.Push(c.Branch, map[string]string{iamPath: string(c.Files[0].Content)}, "an earlier attempt")
	pr, err := f.Propose(context.Background(), c)
	if err != nil || pr.HeadSHA != s.Head(c.Branch) {
		t.Fatalf("resume: %+v, %v", pr, err)
	}
	s.ClosePull(pr.Number)
	s.Push(c.Branch, map[string]string{"other.txt": "x\n"}, "someone's commit on top")
	_, err = f.Propose(context.Background(), c)
	refused(t, err, "already exists with other content")
	c.Branch = "driftboard/prod/iam-v1.5.0-again"
	s.Push(c.Branch, map[string]string{iamPath: string(c.Files[0].Content), "other.txt": "x\n"}, "the change and more")
	_, err = f.Propose(context.Background(), c)
	refused(t, err, "already exists with other content")
	c.Branch = "driftboard/prod/iam-v1.5.0-twice" // the change's tree, but in two commits
	s.Push(c.Branch, map[string]string{iamPath: "half-way\n"}, "one")
	s.Push(c.Branch, map[string]string{iamPath: string(c.Files[0].Content)}, "two")
	_, err = f.Propose(context.Background(), c)
	refused(t, err, "already exists with other content")
}

// The file changed on the base between reading and writing: refused, nothing
// written.
func TestProposeRefusesAStaleFile(t *testing.T) {
	s := newUniverse(t, githubtest.Options{})
	f := newForge(t, s, "gho_writer")
	c := change(t, f)
	s.Push("main", map[string]string{iamPath: strings.Replace(iamCR, "v1.4.0", "v1.4.1", 1)}, "a hotfix")
	_, err := f.Propose(context.Background(), c)
	refused(t, err, iamPath+" changed on main since it was read")
	if w := s.Writes(); len(w) != 0 {
		t.Errorf("wrote %+v", w)
	}
	if s.Head(c.Branch) != "" {
		t.Error("the branch was created")
	}
}
