package drift

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestIsSemverTag(t *testing.T) {
	t.Parallel()
	tests := []struct {
		tag  string
		want bool
	}{
		{"v1.2.3", true},
		{"v0.0.0", true},
		{"v10.20.30", true},
		{"v01.2.3", true}, // the contract's regexp allows leading zeros
		{"v1.02.003", true},
		{"v123456789.0.1", true},
		{"", false},
		{"v", false},
		{"v1", false},
		{"v1.2", false},
		{"1.2.3", false},
		{"V1.2.3", false},
		{"v1.2.3-rc1", false},
		{"v1.2.3+build", false},
		{"v1.2.3.4", false},
		{"v1..3", false},
		{"v1.2.", false},
		{"v.1.2", false},
		{"v1.2.3 ", false},
		{" v1.2.3", false},
		{"vv1.2.3", false},
		{"latest", false},
		{"main", false},
		{"sha-abc123", false},
		{"v١.٢.٣", false},   // Arabic-Indic digits are not \d in Go or JS regexps
		{"v１.２.３", false},   // fullwidth digits
		{"v1.2.3\n", false}, // $ must not accept a trailing newline
		{"v-1.2.3", false},
	}
	for _, tt := range tests {
		t.Run(tt.tag, func(t *testing.T) {
			t.Parallel()
			if got := IsSemverTag(tt.tag); got != tt.want {
				t.Errorf("IsSemverTag(%q) = %v, want %v", tt.tag, got, tt.want)
			}
		})
	}
}

func TestSeverityRank(t *testing.T) {
	t.Parallel()
	got := []int{SeverityOK.Rank(), SeverityYellow.Rank(), SeverityRed.Rank(), DriftSeverity("").Rank(), DriftSeverity("RED").Rank()}
	if diff := cmp.Diff([]int{0, 1, 2, -1, -1}, got); diff != "" {
		t.Errorf("Rank (-want +got):\n%s", diff)
	}
}

func TestDriftSeverityOf(t *testing.T) {
	t.Parallel()
	y := DriftFlag{Kind: DriftStale, Severity: SeverityYellow}
	r := DriftFlag{Kind: DriftNoRelease, Severity: SeverityRed}
	tests := []struct {
		name  string
		flags []DriftFlag
		want  DriftSeverity
	}{
		{"nil", nil, SeverityOK},
		{"empty", []DriftFlag{}, SeverityOK},
		{"yellow", []DriftFlag{y}, SeverityYellow},
		{"red", []DriftFlag{r}, SeverityRed},
		{"red after yellow", []DriftFlag{y, r}, SeverityRed},
		{"yellow after red", []DriftFlag{r, y, y}, SeverityRed},
		{"unknown severity ignored", []DriftFlag{{Severity: "purple"}}, SeverityOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := DriftSeverityOf(tt.flags); got != tt.want {
				t.Errorf("DriftSeverityOf = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestEmptyVerdictJSON(t *testing.T) {
	t.Parallel()
	for name, o := range map[string]Observed{
		"zero":        {},
		"all agree":   {DeclaredTag: "v1.2.3", RunningTag: "v1.2.3", LatestTag: "v1.2.3", ReleaseURL: "https://x/r", ReleaseAssets: 2},
		"latest only": {LatestTag: "v9.9.9"},
	} {
		b, err := json.Marshal(ComputeDrift(o))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := string(b), `{"severity":"ok","flags":[]}`; got != want {
			t.Errorf("%s: JSON = %s, want %s", name, got, want)
		}
	}
}

func TestFlagJSON(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(ComputeDrift(Observed{DeclaredTag: "v1.0.0", RunningTag: "v1.0.0", ReleaseURL: "u"}))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"severity":"red","flags":[{"kind":"zero-assets","severity":"red","message":"The release for v1.0.0 has no assets."}]}`
	if string(b) != want {
		t.Errorf("JSON = %s\nwant   %s", b, want)
	}
}

func TestKindsOrderAndValues(t *testing.T) {
	t.Parallel()
	want := []DriftKind{"floating-declared", "floating-running", "stale", "un-rolled", "no-release", "zero-assets"}
	if diff := cmp.Diff(want, Kinds); diff != "" {
		t.Errorf("Kinds (-want +got):\n%s", diff)
	}
}
