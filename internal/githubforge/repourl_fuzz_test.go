package githubforge

import (
	"strings"
	"testing"
)

// FuzzParseRepoURL: an Application's repoURL is outside input and must never
// choose where a request goes. Whatever it holds, a Repo read from it is on
// the configured host only because the caller names that host, and its
// owner and name are GitHub names that cannot reshape an API path.
func FuzzParseRepoURL(f *testing.F) {
	for _, s := range []string{
		"https://github.com/hanzoai/universe.git",
		"git@github.com:hanzoai/universe.git",
		"ssh://git@github.com:22/hanzoai/universe",
		"https://github.com.evil.example/hanzoai/universe",
		"https://user:pw@github.com/hanzoai/universe",
		"https://github.com/hanzoai/../universe",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		r, err := ParseRepoURL(raw, "github.com")
		if err != nil {
			return
		}
		for _, part := range []string{r.Owner, r.Name} {
			if !nameRE.MatchString(part) || part == "." || part == ".." {
				t.Fatalf("%q gave the repository part %q", raw, part)
			}
		}
		if !strings.Contains(strings.ToLower(raw), "github.com") {
			t.Fatalf("%q names no configured host yet gave %v", raw, r)
		}
	})
}
