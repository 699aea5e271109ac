package main

import (
	"os"
	"regexp"
	"testing"
)

// A patch-level go line (say 1.26.7) makes every user on an earlier 1.26
// patch download a toolchain first; 1.26.0 is the floor bubbletea v2 sets.
func TestGoModAcceptsEveryPatchRelease(t *testing.T) {
	data, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(data)
	if line == nil {
		t.Fatal("go.mod has no go line")
	}
	if !regexp.MustCompile(`^1\.\d+(\.0)?$`).Match(line[1]) {
		t.Fatalf("go.mod says go %s: a patch-level floor; want 1.N or 1.N.0", line[1])
	}
	if regexp.MustCompile(`(?m)^toolchain `).Match(data) {
		t.Fatal("go.mod names a toolchain: users would download it")
	}
}
