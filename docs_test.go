package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/model"
)

// The README is a newcomer's first hour; the reference lives in docs/.
func TestReadmeIsShort(t *testing.T) {
	lines := readLines(t, "README.md")
	if len(lines) > 250 {
		t.Errorf("README.md has %d lines; at most 250 (the reference goes to docs/)", len(lines))
	}
}

// The README opens with the two commands that set everything up, and they
// are true: the Makefile has both targets and CI runs the test one.
func TestReadmeStartsWithTheTwoCommands(t *testing.T) {
	lines := readLines(t, "README.md")
	if len(lines) < 4 || lines[0] != "```sh" || !strings.HasPrefix(lines[1], "make demo ") ||
		!strings.HasPrefix(lines[2], "make test ") || lines[3] != "```" {
		t.Fatalf("README.md must open with a ```sh block of `make demo` then `make test`; it opens with %q", lines[:min(4, len(lines))])
	}
	mk, err := os.ReadFile("Makefile")
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"demo", "test"} {
		if !regexp.MustCompile(`(?m)^` + target + `:`).Match(mk) {
			t.Errorf("the Makefile has no %s target", target)
		}
	}
	ci, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^make test$`).Match(ci) {
		t.Error(".ci/run does not run `make test`, the README's test command")
	}
}

// mdLink is a markdown link or image: [text](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// Every relative link in the README and docs/ names a file that exists, and
// an anchor names a heading of that file.
func TestDocLinksResolve(t *testing.T) {
	docs, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatal("no docs/*.md")
	}
	checked := 0
	for _, file := range append([]string{"README.md"}, docs...) {
		for i, line := range proseLines(readLines(t, file)) {
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				checked++
				path, anchor, _ := strings.Cut(target, "#")
				dest := file
				if path != "" {
					dest = filepath.Join(filepath.Dir(file), path)
					if _, err := os.Stat(dest); err != nil {
						t.Errorf("%s:%d: link %q: %v", file, i+1, target, err)
						continue
					}
				}
				if anchor != "" && strings.HasSuffix(dest, ".md") && !hasAnchor(t, dest, anchor) {
					t.Errorf("%s:%d: link %q: %s has no heading #%s", file, i+1, target, dest, anchor)
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d relative links checked: the link pattern misses them", checked)
	}
}

// Refusals name the trust model's document; it must exist.
func TestTrustModelDocExists(t *testing.T) {
	m := regexp.MustCompile(`docs/[a-z-]+\.md`).FindString(model.TrustModelDoc)
	if m == "" {
		t.Fatalf("model.TrustModelDoc %q names no docs/*.md", model.TrustModelDoc)
	}
	if _, err := os.Stat(m); err != nil {
		t.Error(err)
	}
}

// Every direct dependency in go.mod is explained in docs/dependencies.md,
// and every module explained there is one go.mod requires.
func TestDependenciesDocCoversGoMod(t *testing.T) {
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("docs/dependencies.md")
	if err != nil {
		t.Fatal(err)
	}
	required := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\s+(\S+) v\S+( // indirect)?$`).FindAllStringSubmatch(string(mod), -1) {
		required[m[1]] = m[2] == ""
	}
	named := map[string]bool{}
	for _, line := range strings.Split(string(doc), "\n") {
		if m := regexp.MustCompile("^\\| `([^`]+)`").FindStringSubmatch(line); m != nil {
			named[m[1]] = true
		}
	}
	for path, direct := range required {
		if direct && !named[path] {
			t.Errorf("go.mod requires %s directly; docs/dependencies.md does not say why", path)
		}
	}
	for path := range named {
		if _, ok := required[path]; !ok {
			t.Errorf("docs/dependencies.md explains %s, which go.mod does not require", path)
		}
	}
	if len(named) < 20 {
		t.Errorf("docs/dependencies.md names %d modules in its table's first column", len(named))
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// proseLines blanks the lines inside fenced code blocks, keeping numbering.
func proseLines(lines []string) []string {
	out := make([]string, len(lines))
	fenced := false
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimLeft(l, " "), "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			out[i] = l
		}
	}
	return out
}

// hasAnchor reports whether a heading of file has GitHub's anchor name.
func hasAnchor(t *testing.T, file, anchor string) bool {
	for _, l := range proseLines(readLines(t, file)) {
		if h, ok := strings.CutPrefix(strings.TrimLeft(l, "#"), " "); ok && strings.HasPrefix(l, "#") && slug(h) == anchor {
			return true
		}
	}
	return false
}

// slug is GitHub's anchor for a heading: lower case, punctuation dropped,
// spaces to hyphens.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}
