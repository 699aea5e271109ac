package query

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hanzoai/driftboard/model/modeltest"
)

func TestFuzzyAndGlob(t *testing.T) {
	t.Parallel()
	fz := []struct {
		hay, needle string
		want        bool
	}{
		{"hanzo/iam/main", "", true},
		{"hanzo/iam/main", "iam", true},
		{"hanzo/iam/main", "hzim", true},
		{"hanzo/iam/main", "mai", true},
		{"hanzo/iam/main", "maim", false},
		{"Hanzo/IAM", "iam", true},
		{"ÄPP-Ünï", "äpp", true},
		{"äpp", "äppx", false},
		{"", "a", false},
		{"\xff\xfe", "a", false}, // invalid UTF-8 must not panic
	}
	for _, tt := range fz {
		if got := fuzzy(tt.hay, tt.needle); got != tt.want {
			t.Errorf("fuzzy(%q, %q) = %v, want %v", tt.hay, tt.needle, got, tt.want)
		}
	}
	gl := []struct {
		pattern, s string
		want       bool
	}{
		{"tenant-*", "tenant-acme", true},
		{"tenant-*", "Tenant-ACME", true},
		{"tenant-*", "tenant", false},
		{"*-testnet", "hanzo-testnet", true},
		{"h?nzo", "HANZO", true},
		{"[ab]*", "beta", true},
		{"[ab]*", "gamma", false},
	}
	for _, tt := range gl {
		if got := globMatch(tt.pattern, tt.s); got != tt.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", tt.pattern, tt.s, got, tt.want)
		}
	}
}

func TestQuotedValues(t *testing.T) {
	t.Parallel()
	rows := fleet(t)
	rows[0] = modeltest.Ptr(*rows[0])
	rows[0].Org = "lux fi"
	for _, q := range []string{`org:"lux fi"`, `"org:lux fi"`, `org:"LUX FI",nobody`} {
		got, err := Parse(q)
		if err != nil {
			t.Fatalf("Parse(%q): %v", q, err)
		}
		want := []string{"iam"}
		if q == `"org:lux fi"` { // a quoted whole term is free text
			want = []string{}
		}
		if diff := cmp.Diff(want, names(Select(rows, got, SortName))); diff != "" {
			t.Errorf("Select(%q) (-want +got):\n%s", q, diff)
		}
	}
}
