package config

import (
	"fmt"
	"path"
	"strings"
	"time"
)

// Promote configures promotions: where an App's tag is declared when no CD
// Application says so, and how long each step may take before the row says
// it is late.
type Promote struct {
	// Files map an App ("<namespace>/<app>", or "<app>" in any namespace)
	// to the file that declares it; an entry overrides the lookup through
	// the CD Application.
	Files map[string]PromoteFile `json:"files,omitempty"`
	// Budgets are Go durations per step; empty ones take the defaults.
	Budgets PromoteBudgets `json:"budgets,omitzero"`
}

// PromoteFile is one App's declaring file in git.
type PromoteFile struct {
	Repo   string `json:"repo"`             // owner/name on the GitHub host
	Path   string `json:"path"`             // the file, from the repository's root
	Branch string `json:"branch,omitempty"` // the base branch; default main
}

// PromoteBudgets bound the steps of a promotion, as Go durations.
type PromoteBudgets struct {
	Review  string `json:"review,omitempty"`  // pull request open → merged
	Sync    string `json:"sync,omitempty"`    // merged → CD synced to the merge
	Rollout string `json:"rollout,omitempty"` // the App declares the tag → every pod runs it
}

// FileFor is the configured declaring file of App name in namespace: the
// "<namespace>/<app>" entry before the "<app>" one.
func (p Promote) FileFor(namespace, name string) (PromoteFile, bool) {
	if f, ok := p.Files[namespace+"/"+name]; ok {
		return f, true
	}
	f, ok := p.Files[name]
	return f, ok
}

// checkPromote reports every problem of the promote section.
func checkPromote(p Promote, at func(string, ...string) func(string, ...any) error) {
	for key, f := range p.Files {
		fail := at("promote.files."+key, "promote", "files", key)
		if err := checkPromoteFile(key, f); err != nil {
			fail("%v", err)
		}
	}
	for _, b := range []struct{ name, v string }{{"review", p.Budgets.Review}, {"sync", p.Budgets.Sync}, {"rollout", p.Budgets.Rollout}} {
		if b.v == "" {
			continue
		}
		if d, err := time.ParseDuration(b.v); err != nil || d <= 0 {
			at("promote.budgets."+b.name, "promote", "budgets", b.name)("%q is not a positive duration like 30m or 24h", b.v)
		}
	}
}

func checkPromoteFile(key string, f PromoteFile) error {
	if ns, name, two := strings.Cut(key, "/"); key == "" || (two && (ns == "" || name == "" || strings.Contains(name, "/"))) {
		return fmt.Errorf("%q is not <app> or <namespace>/<app>", key)
	}
	owner, repo, ok := strings.Cut(f.Repo, "/")
	if !ok || owner == "" || repo == "" || strings.Contains(repo, "/") {
		return fmt.Errorf("repo %q is not owner/repo", f.Repo)
	}
	if f.Path == "" || strings.HasPrefix(f.Path, "/") || path.Clean(f.Path) != f.Path || strings.HasPrefix(f.Path, "../") {
		return fmt.Errorf("path %q is not a file path from the repository's root", f.Path)
	}
	if ext := path.Ext(f.Path); ext != ".yaml" && ext != ".yml" {
		return fmt.Errorf("path %q is not a .yaml or .yml file", f.Path)
	}
	if strings.ContainsAny(f.Branch, " ~^:?*[\\") || strings.Contains(f.Branch, "..") {
		return fmt.Errorf("branch %q is not a branch name", f.Branch)
	}
	return nil
}
