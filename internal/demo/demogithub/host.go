package demogithub

import (
	"maps"
	"slices"

	"github.com/hanzoai/driftboard/internal/promote"
)

// What the demo's simulator and the tests do to the host: seed
// repositories, move checks, close pull requests, read what was written.

// AddRepo seeds a repository with one commit on branch.
func (g *GitHub) AddRepo(r promote.Repo, branch string, files map[string]string) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	rp := &repo{branches: map[string]string{}, commits: map[string]*commit{}, heads: map[int]string{}, bodies: map[int]string{}}
	c := &commit{files: map[string][]byte{}}
	for p, s := range files {
		c.files[p] = []byte(s)
	}
	g.repos[r] = rp
	sha := g.commitLocked(rp, c, "seed")
	rp.branches[branch] = sha
	return sha
}

// SetChecks sets the checks new pull requests start with, and those of
// pull request n of r when n > 0.
func (g *GitHub) SetChecks(r promote.Repo, n int, c promote.Checks) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if n == 0 {
		g.checks = c
		return
	}
	if pr := g.pullLocked(r, n); pr != nil {
		pr.Checks = c
	}
}

// DenyMerge makes every merge refused with why (branch protection, say).
func (g *GitHub) DenyMerge(why string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.noMerge = why
}

// Close closes pull request n of r without merging it.
func (g *GitHub) Close(r promote.Repo, n int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if pr := g.pullLocked(r, n); pr != nil && pr.State == promote.PROpen {
		pr.State, pr.ClosedAt = promote.PRClosed, g.now()
	}
}

// File is path at ref (a branch or a commit) of r; nil when absent.
func (g *GitHub) File(r promote.Repo, ref, path string) []byte {
	g.mu.Lock()
	defer g.mu.Unlock()
	if c := g.resolveLocked(r, ref); c != nil {
		return c.files[path]
	}
	return nil
}

// Head is the commit branch points at in r.
func (g *GitHub) Head(r promote.Repo, branch string) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	if rp := g.repos[r]; rp != nil {
		return rp.branches[branch]
	}
	return ""
}

// Commit writes one file on branch of r in one commit, as a push would (the
// demo's own git bumps); it returns the new commit.
func (g *GitHub) Commit(r promote.Repo, branch, path string, content []byte, message string) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	rp := g.repos[r]
	if rp == nil || rp.branches[branch] == "" {
		return ""
	}
	base := rp.commits[rp.branches[branch]]
	next := &commit{files: maps.Clone(base.files), parent: rp.branches[branch]}
	next.files[path] = slices.Clone(content)
	sha := g.commitLocked(rp, next, message)
	rp.branches[branch] = sha
	return sha
}

// Body is pull request n's body in r.
func (g *GitHub) Body(r promote.Repo, n int) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	if rp := g.repos[r]; rp != nil {
		return rp.bodies[n]
	}
	return ""
}
