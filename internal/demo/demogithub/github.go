// Package demogithub is the demo's GitHub: repositories held in memory with
// branches, commits and pull requests, behind the promotion's Forge. The
// demo shows a promotion end to end on it, and the promotion's own tests
// use it for their logic (the GitHub implementation has its own test server
// backed by a real git repository).
package demogithub

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hanzoai/driftboard/internal/promote"
)

// GitHub is one simulated host. Its zero value is not usable: New.
type GitHub struct {
	mu      sync.Mutex
	login   string
	now     func() time.Time
	repos   map[promote.Repo]*repo
	seq     int
	checks  promote.Checks // the state new pull requests' checks start in
	noMerge string         // why this login may not merge ("": it may)
}

type repo struct {
	branches map[string]string  // branch → commit
	commits  map[string]*commit // by SHA
	pulls    []*promote.PullRequest
	heads    map[int]string // pull request → its head commit
	bodies   map[int]string // pull request → its body
}

type commit struct {
	files  map[string][]byte
	parent string
}

var _ promote.Forge = (*GitHub)(nil)

// New is a GitHub where login acts (""; no token: every call is refused).
func New(login string, now func() time.Time) *GitHub {
	return &GitHub{login: login, now: now, repos: map[promote.Repo]*repo{}, checks: promote.ChecksPending}
}

func (g *GitHub) Login(context.Context) (string, error) {
	if g.login == "" {
		return "", &promote.Refused{Reason: "no GitHub token: set GH_TOKEN or log in with gh auth login"}
	}
	return g.login, nil
}

func (g *GitHub) Tree(ctx context.Context, r promote.Repo, ref, dir string) ([]string, error) {
	if _, err := g.Login(ctx); err != nil {
		return nil, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	c := g.resolveLocked(r, ref)
	if c == nil {
		return nil, fmt.Errorf("GitHub: %s has no ref %s (404)", r, ref)
	}
	prefix := strings.Trim(dir, "/") + "/"
	var out []string
	for p := range c.files {
		if dir == "" || strings.HasPrefix(p, prefix) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out, nil
}

func (g *GitHub) ReadFile(ctx context.Context, r promote.Repo, ref, path string) ([]byte, string, error) {
	if _, err := g.Login(ctx); err != nil {
		return nil, "", err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	c := g.resolveLocked(r, ref)
	if c == nil || c.files[path] == nil {
		return nil, "", fmt.Errorf("GitHub: %s has no %s at %s (404)", r, path, ref)
	}
	b := c.files[path]
	return slices.Clone(b), BlobSHA(b), nil
}

func (g *GitHub) Propose(ctx context.Context, ch promote.Change) (promote.PullRequest, error) {
	if _, err := g.Login(ctx); err != nil {
		return promote.PullRequest{}, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	rp := g.repos[ch.Repo]
	if rp == nil || rp.branches[ch.Base] == "" {
		return promote.PullRequest{}, fmt.Errorf("GitHub: %s has no branch %s (404)", ch.Repo, ch.Base)
	}
	for _, pr := range rp.pulls {
		if pr.State == promote.PROpen && pr.Branch == ch.Branch {
			out := *pr
			out.Reused = true
			return out, nil
		}
	}
	if ch.Branch == ch.Base {
		return promote.PullRequest{}, &promote.Refused{Reason: "a promotion never writes to its base branch " + ch.Base}
	}
	if rp.branches[ch.Branch] != "" {
		return promote.PullRequest{}, &promote.Refused{Reason: fmt.Sprintf("branch %s already exists in %s with no open pull request", ch.Branch, ch.Repo)}
	}
	base := rp.commits[rp.branches[ch.Base]]
	next := &commit{files: maps.Clone(base.files), parent: rp.branches[ch.Base]}
	for _, f := range ch.Files {
		if old := base.files[f.Path]; BlobSHA(old) != f.OldSHA {
			return promote.PullRequest{}, &promote.Refused{Reason: fmt.Sprintf("%s changed on %s since it was read; nothing was written", f.Path, ch.Base)}
		}
		next.files[f.Path] = slices.Clone(f.Content)
	}
	head := g.commitLocked(rp, next, ch.Message)
	rp.branches[ch.Branch] = head
	pr := &promote.PullRequest{Repo: ch.Repo, Number: len(rp.pulls) + 1, Branch: ch.Branch, Base: ch.Base, Title: ch.Title,
		State: promote.PROpen, HeadSHA: head, Checks: g.checks, OpenedAt: g.now()}
	pr.URL = fmt.Sprintf("https://github.com/%s/pull/%d", ch.Repo, pr.Number)
	rp.pulls = append(rp.pulls, pr)
	rp.heads[pr.Number] = head
	rp.bodies[pr.Number] = ch.Body
	return *pr, nil
}

func (g *GitHub) PullRequest(ctx context.Context, r promote.Repo, n int) (promote.PullRequest, error) {
	if _, err := g.Login(ctx); err != nil {
		return promote.PullRequest{}, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if pr := g.pullLocked(r, n); pr != nil {
		return *pr, nil
	}
	return promote.PullRequest{}, fmt.Errorf("GitHub: %s has no pull request %d (404)", r, n)
}

func (g *GitHub) OpenPullRequests(ctx context.Context, r promote.Repo, prefix string) ([]promote.PullRequest, error) {
	return g.pulls(ctx, r, func(pr *promote.PullRequest) bool {
		return pr.State == promote.PROpen && strings.HasPrefix(pr.Branch, prefix)
	})
}

func (g *GitHub) MergedPullRequests(ctx context.Context, r promote.Repo, prefix string, since time.Time) ([]promote.PullRequest, error) {
	out, err := g.pulls(ctx, r, func(pr *promote.PullRequest) bool {
		return pr.State == promote.PRMerged && !pr.MergedAt.Before(since) && strings.HasPrefix(pr.Branch, prefix)
	})
	slices.SortFunc(out, promote.NewestMergeFirst)
	return out, err
}

// pulls are r's pull requests that keep takes, with their bodies.
func (g *GitHub) pulls(ctx context.Context, r promote.Repo, keep func(*promote.PullRequest) bool) ([]promote.PullRequest, error) {
	if _, err := g.Login(ctx); err != nil {
		return nil, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []promote.PullRequest
	if rp := g.repos[r]; rp != nil {
		for _, pr := range rp.pulls {
			if keep(pr) {
				cp := *pr
				cp.Body = rp.bodies[pr.Number]
				out = append(out, cp)
			}
		}
	}
	return out, nil
}

func (g *GitHub) Merge(ctx context.Context, r promote.Repo, n int, headSHA string) (promote.PullRequest, error) {
	if _, err := g.Login(ctx); err != nil {
		return promote.PullRequest{}, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	pr := g.pullLocked(r, n)
	switch {
	case pr == nil:
		return promote.PullRequest{}, fmt.Errorf("GitHub: %s has no pull request %d (404)", r, n)
	case pr.State != promote.PROpen:
		return promote.PullRequest{}, &promote.Refused{Reason: fmt.Sprintf("Pull Request is not mergeable: it is %s (405)", pr.State)}
	case g.noMerge != "":
		return promote.PullRequest{}, &promote.Refused{Reason: g.noMerge}
	case pr.HeadSHA != headSHA:
		return promote.PullRequest{}, &promote.Refused{Reason: "Head branch was modified. Review and try the merge again. (409)"}
	case pr.Checks == promote.ChecksFailed || pr.Checks == promote.ChecksPending:
		return promote.PullRequest{}, &promote.Refused{Reason: fmt.Sprintf("Required status check is %s (405)", pr.Checks)}
	}
	rp := g.repos[r]
	base := rp.commits[rp.branches[pr.Base]]
	head := rp.commits[pr.HeadSHA]
	merged := &commit{files: maps.Clone(base.files), parent: rp.branches[pr.Base]}
	for p, b := range head.files {
		if parent := rp.commits[head.parent]; parent == nil || string(parent.files[p]) != string(b) {
			merged.files[p] = b
		}
	}
	sha := g.commitLocked(rp, merged, fmt.Sprintf("Merge pull request #%d from %s", n, pr.Branch))
	rp.branches[pr.Base] = sha
	pr.State, pr.MergeSHA, pr.MergedAt = promote.PRMerged, sha, g.now()
	return *pr, nil
}

func (g *GitHub) pullLocked(r promote.Repo, n int) *promote.PullRequest {
	if rp := g.repos[r]; rp != nil && n >= 1 && n <= len(rp.pulls) {
		return rp.pulls[n-1]
	}
	return nil
}

func (g *GitHub) resolveLocked(r promote.Repo, ref string) *commit {
	rp := g.repos[r]
	if rp == nil {
		return nil
	}
	if sha, ok := rp.branches[ref]; ok {
		ref = sha
	}
	return rp.commits[ref]
}

func (g *GitHub) commitLocked(rp *repo, c *commit, message string) string {
	g.seq++
	h := sha1.New()
	fmt.Fprintf(h, "%s\x00%s\x00%d", c.parent, message, g.seq)
	for _, p := range slices.Sorted(maps.Keys(c.files)) {
		fmt.Fprintf(h, "%s\x00%s\x00", p, BlobSHA(c.files[p]))
	}
	sha := hex.EncodeToString(h.Sum(nil))
	rp.commits[sha] = c
	return sha
}

// BlobSHA is git's blob SHA of b.
func BlobSHA(b []byte) string {
	if b == nil {
		return ""
	}
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(b))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}
