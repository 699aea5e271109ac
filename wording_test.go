package main

import (
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// processWords are phrases about how the work on driftboard was organised
// (who did what, in which step, after whose finding). Docs and comments say
// what the program does and what was measured, and how.
var processWords = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\bthis stop\b`),
	regexp.MustCompile(`(?i)\b(the )?(last|previous|earlier|next|final) stop\b`),
	regexp.MustCompile(`(?i)\bstop's\b`),
	regexp.MustCompile(`(?i)\bthe issue\b`), // not "the issuer"
	regexp.MustCompile(`(?i)\bissues? #?[0-9]+`),
	regexp.MustCompile(`(?i)\bhelpers? [0-9]`),
	regexp.MustCompile(`(?i)\b(an? |the )?(earlier|previous|last|next|another|other) sessions?\b`),
	regexp.MustCompile(`(?i)\bsession's (figures|runs?|notes|code)\b`),
	regexp.MustCompile(`(?i)\b(first|second|third|fourth|fifth|sixth|seventh|final|last|next|earlier|previous|this|another|later|review) rounds?\b`),
	regexp.MustCompile(`(?i)\b(seven|six|five|four|three|two) rounds\b`),
	regexp.MustCompile(`(?i)\bround (one|two|three|four)\b`),
	regexp.MustCompile(`(?i)\breviewers?\b`),
	regexp.MustCompile(`(?i)\b(final|code|design) review\b`),
	regexp.MustCompile(`(?i)\bthe lead\b`),
	regexp.MustCompile(`(?i)\bthe brief\b`),
	regexp.MustCompile(`(?i)\bdesign notes\b`),
	regexp.MustCompile(`(?i)\bthe final code\b`),
	regexp.MustCompile(`(?i)\bclosing note\b`),
}

// productWords are the program's own phrases that contain a processWord's
// letters; they are blanked before matching.
var productWords = regexp.MustCompile(`(?i)\bround[- ]trip`)

// processPhrase is the first process phrase in line, or "".
func processPhrase(line string) string {
	return firstMatch(productWords.ReplaceAllString(line, "_"))
}

func firstMatch(s string) string {
	for _, re := range processWords {
		if m := re.FindString(s); m != "" {
			return m
		}
	}
	return ""
}

func TestNoWorkOrganisationInDocsOrComments(t *testing.T) {
	var found []string
	report := func(pos, line string) {
		if m := processPhrase(line); m != "" {
			found = append(found, pos+": "+strings.TrimSpace(line)+"  ["+m+"]")
		}
	}
	files := 0
	for _, path := range sourceFiles(t) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		files++
		if strings.HasSuffix(path, ".md") {
			for i, line := range strings.Split(string(b), "\n") {
				report(path+":"+strconv.Itoa(i+1), line)
			}
			continue
		}
		fset := token.NewFileSet()
		var s scanner.Scanner
		s.Init(fset.AddFile(path, -1, len(b)), b, nil, scanner.ScanComments)
		for {
			pos, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if tok != token.COMMENT {
				continue
			}
			first := fset.Position(pos).Line
			for i, line := range strings.Split(lit, "\n") {
				report(path+":"+strconv.Itoa(first+i), line)
			}
		}
	}
	if files < 100 {
		t.Fatalf("read only %d files: the walk missed the tree", files)
	}
	for _, f := range found {
		t.Error(f)
	}
}

// The phrase list catches what it is meant to and leaves the program's own
// words alone.
func TestProcessPhrases(t *testing.T) {
	for _, s := range []string{
		"measured on this stop's code", "in the last stop's run", "each figure beside the issue's target",
		"helper 1's profile", "BenchmarkFleet, an earlier session's figures", "seven rounds on one fleet",
		"the reviewer's finding", "the final review", "a second round of fixes",
	} {
		if processPhrase(s) == "" {
			t.Errorf("%q is not caught", s)
		}
	}
	for _, s := range []string{
		"a restart needs a login", "the issuer's signing keys", "the first round trip of that chain", "this round-trip",
		"restarts stop after a failure", "the session's token", "a SelfSubjectAccessReview",
		"store the review and answer", "nothing new starts; the rest stop", "stop new starts",
	} {
		if m := processPhrase(s); m != "" {
			t.Errorf("%q matches %q: a product phrase", s, m)
		}
	}
}

// sourceFiles are the repository's *.md and *.go files, outside hidden
// directories (.git, .testenv) and build output.
func sourceFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != "." && (strings.HasPrefix(name, ".") || name == "bin" || name == "dist") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".md") || strings.HasSuffix(name, ".go") {
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
