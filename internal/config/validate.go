package config

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"
	"time"

	yamlv3 "go.yaml.in/yaml/v3"
)

// Checks are validators owned by other packages (the query language, the
// board's key actions); nil skips the check.
type Checks struct {
	Query     func(q string) error
	KeyAction func(action string) error
	CDKind    func(kind string) error
}

// MinReleaseInterval keeps anonymous GitHub use under its 60 requests/hour.
const MinReleaseInterval = time.Minute

// validate returns every problem with the values, not only the first.
func validate(file string, doc *yamlv3.Node, c *Config, checks Checks) []*Error {
	var errs []*Error
	at := func(field string, path ...string) func(format string, args ...any) error {
		return func(format string, args ...any) error {
			e := &Error{File: file, Line: 1, Column: 1, Field: field, Msg: fmt.Sprintf(format, args...)}
			if n := find(doc, path...); n != nil {
				e.Line, e.Column = n.Line, n.Column
			}
			errs = append(errs, e)
			return e
		}
	}
	for i, ctx := range c.Contexts {
		if strings.TrimSpace(ctx) == "" {
			at(fmt.Sprintf("contexts[%d]", i), "contexts")("empty context name")
		}
	}
	for i, entry := range c.IAM.Clusters {
		if err := CheckIAMCluster(entry); err != nil {
			at(fmt.Sprintf("iam.clusters[%d]", i), "iam", "clusters")("%v", err)
		}
	}
	if c.Issuer != "" {
		if err := checkURL(c.Issuer); err != nil {
			at("issuer", "issuer")("%v", err)
		}
	}
	switch c.Theme {
	case "", "auto", "dark", "light":
	default:
		at("theme", "theme")("%q is not a theme; use auto, dark or light", c.Theme)
	}
	for name, q := range c.SavedFilters {
		field := "savedFilters." + name
		if checks.Query != nil {
			if err := checks.Query(q); err != nil {
				at(field, "savedFilters", name)("query %q: %v", q, err)
			}
		}
	}
	validateKeys(c.Keys, checks, at)
	validateKarmada(c.Karmada, at)
	for i, k := range c.CD.ApplicationKinds {
		if checks.CDKind != nil {
			if err := checks.CDKind(k); err != nil {
				at(fmt.Sprintf("cd.applicationKinds[%d]", i), "cd", "applicationKinds")("%v", err)
			}
		}
	}
	checkPromote(c.Promote, at)
	if p := c.Restart.MaxParallel; p != nil && *p < 1 {
		at("restart.maxParallel", "restart", "maxParallel")("%d: at least 1 restart must run at once", *p)
	}
	if n := c.Logs.MaxLines; n != nil && (*n < MinLogLines || *n > MaxLogLines) {
		at("logs.maxLines", "logs", "maxLines")("%d: keep between %d and %d lines", *n, MinLogLines, MaxLogLines)
	}
	r := c.Releases
	if r.Interval != "" {
		d, err := time.ParseDuration(r.Interval)
		if err != nil {
			at("releases.interval", "releases", "interval")("%q is not a duration like 10m or 1h", r.Interval)
		} else if d < MinReleaseInterval {
			at("releases.interval", "releases", "interval")("%s is shorter than the minimum %s", d, MinReleaseInterval)
		}
	}
	if r.GitHubURL != "" {
		if err := checkURL(r.GitHubURL); err != nil {
			at("releases.githubURL", "releases", "githubURL")("%v", err)
		}
	}
	for i, m := range r.Repos {
		if err := checkRepoMapping(m); err != nil {
			at(fmt.Sprintf("releases.repos[%d]", i), "releases", "repos")("%v", err)
		}
	}
	return errs
}

// checkRepoMapping rejects patterns path.Match cannot use and targets that
// are not owner/repo.
func checkRepoMapping(m RepoMapping) error {
	if m.Image == "" {
		return errors.New("image is empty")
	}
	for _, seg := range strings.Split(m.Image, "/") {
		if _, err := path.Match(seg, ""); err != nil || seg == "" {
			return fmt.Errorf("image %q is not a host/path pattern", m.Image)
		}
	}
	if m.GitHub == "" {
		return nil
	}
	owner, repo, ok := strings.Cut(m.GitHub, "/")
	if !ok || owner == "" || repo == "" || strings.Contains(repo, "/") {
		return fmt.Errorf("github %q is not owner/repo", m.GitHub)
	}
	return nil
}

// validateKeys reports every key problem, one per action at most.
func validateKeys(keys map[string][]string, checks Checks, at func(string, ...string) func(string, ...any) error) {
	owner := map[string]string{}
	actions := make([]string, 0, len(keys))
	for a := range keys {
		actions = append(actions, a)
	}
	slices.Sort(actions) // deterministic conflict reports
	for _, action := range actions {
		fail := at("keys."+action, "keys", action)
		if checks.KeyAction != nil {
			if err := checks.KeyAction(action); err != nil {
				fail("%v", err)
				continue
			}
		}
		if len(keys[action]) == 0 {
			fail("no keys given; remove the entry to keep the default")
			continue
		}
		for _, k := range keys[action] {
			if strings.TrimSpace(k) == "" {
				fail("empty key")
				break
			}
			if prev, dup := owner[k]; dup && prev != action {
				fail("key %q is also bound to %q", k, prev)
				break
			}
			owner[k] = action
		}
	}
}

// firstPerField keeps the first problem said of each field.
func firstPerField(errs []*Error) []*Error {
	seen := map[string]bool{}
	var out []*Error
	for _, e := range errs {
		if e.Field != "" && seen[e.Field] {
			continue
		}
		seen[e.Field] = true
		out = append(out, e)
	}
	return out
}

// keysAsWritten re-reads the keys: lists from the YAML nodes: the YAML 1.1
// decoder turns a bare n, y, on or off into a boolean ("false"), and those
// are keys a user may well bind.
func keysAsWritten(doc *yamlv3.Node, c *Config) {
	for action := range c.Keys {
		n := find(doc, "keys", action)
		if n == nil || n.Kind != yamlv3.SequenceNode || len(n.Content) != len(c.Keys[action]) {
			continue
		}
		keys := make([]string, 0, len(n.Content))
		for _, item := range n.Content {
			keys = append(keys, item.Value)
		}
		c.Keys[action] = keys
	}
}

func checkURL(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("%q is not a URL", s)
	}
	if u.Scheme != "https" && u.Scheme != "http" || u.Host == "" {
		return fmt.Errorf("%q must be an http(s) URL with a host", s)
	}
	return nil
}
