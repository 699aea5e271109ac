package drift

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// kinds is a compact view of a verdict for table comparisons.
func kinds(d Drift) []DriftKind {
	out := []DriftKind{}
	for _, f := range d.Flags {
		out = append(out, f.Kind)
	}
	return out
}

const url = "https://github.com/hanzoai/iam/releases/tag/v1.2.3"

func TestComputeDriftRules(t *testing.T) {
	t.Parallel()
	// ok is a row that trips nothing; each case perturbs it.
	ok := Observed{DeclaredTag: "v1.2.3", RunningTag: "v1.2.3", LatestTag: "v1.2.3", ReleaseURL: url, ReleaseAssets: 3}
	with := func(f func(*Observed)) Observed { o := ok; f(&o); return o }
	tests := []struct {
		name string
		in   Observed
		want []DriftKind
		sev  DriftSeverity
	}{
		{"all agree", ok, []DriftKind{}, SeverityOK},
		{"nothing known", Observed{}, []DriftKind{}, SeverityOK},
		// floating-declared
		{"declared floating", with(func(o *Observed) { o.DeclaredTag = "latest"; o.RunningTag = "latest" }),
			[]DriftKind{DriftFloatingDeclared, DriftFloatingRunning}, SeverityRed},
		{"declared floating suppresses stale", with(func(o *Observed) { o.DeclaredTag = "main"; o.RunningTag = "" }),
			[]DriftKind{DriftFloatingDeclared}, SeverityRed},
		{"declared prerelease is floating", with(func(o *Observed) { o.DeclaredTag = "v1.2.3-rc1"; o.RunningTag = "" }),
			[]DriftKind{DriftFloatingDeclared}, SeverityRed},
		{"empty declared is not floating", with(func(o *Observed) { o.DeclaredTag = "" }), []DriftKind{}, SeverityOK},
		// floating-running
		{"running floating", with(func(o *Observed) { o.RunningTag = "latest" }),
			[]DriftKind{DriftFloatingRunning, DriftUnrolled}, SeverityRed},
		{"running floating, nothing declared", Observed{RunningTag: "sha-1"}, []DriftKind{DriftFloatingRunning}, SeverityRed},
		{"empty running is not floating", with(func(o *Observed) { o.RunningTag = "" }), []DriftKind{}, SeverityOK},
		// stale
		{"stale", with(func(o *Observed) { o.LatestTag = "v1.3.0" }), []DriftKind{DriftStale}, SeverityYellow},
		{"stale compares verbatim, not by order", with(func(o *Observed) { o.LatestTag = "v1.0.0" }), []DriftKind{DriftStale}, SeverityYellow},
		{"latest empty is not stale", with(func(o *Observed) { o.LatestTag = "" }), []DriftKind{}, SeverityOK},
		{"latest floating is not stale", with(func(o *Observed) { o.LatestTag = "nightly" }), []DriftKind{}, SeverityOK},
		{"declared empty is not stale", Observed{LatestTag: "v2.0.0", ReleaseURL: url, ReleaseAssets: 1}, []DriftKind{}, SeverityOK},
		{"leading zero is a different tag", with(func(o *Observed) { o.LatestTag = "v01.2.3" }), []DriftKind{DriftStale}, SeverityYellow},
		// un-rolled
		{"un-rolled", with(func(o *Observed) { o.RunningTag = "v1.2.2" }), []DriftKind{DriftUnrolled}, SeverityYellow},
		{"running unknown is not un-rolled", with(func(o *Observed) { o.RunningTag = "" }), []DriftKind{}, SeverityOK},
		{"un-rolled is verbatim (case)", with(func(o *Observed) { o.DeclaredTag = "v1.2.3"; o.RunningTag = "V1.2.3" }),
			[]DriftKind{DriftFloatingRunning, DriftUnrolled}, SeverityRed},
		// no-release
		{"no release", with(func(o *Observed) { o.ReleaseURL = ""; o.ReleaseAssets = 0 }), []DriftKind{DriftNoRelease}, SeverityRed},
		{"no release needs a declared tag", Observed{RunningTag: "v1.0.0"}, []DriftKind{}, SeverityOK},
		{"no release ignores a stray asset count", with(func(o *Observed) { o.ReleaseURL = ""; o.ReleaseAssets = 5 }), []DriftKind{DriftNoRelease}, SeverityRed},
		// zero-assets
		{"zero assets", with(func(o *Observed) { o.ReleaseAssets = 0 }), []DriftKind{DriftZeroAssets}, SeverityRed},
		{"zero assets without declared tag", Observed{ReleaseURL: url}, []DriftKind{DriftZeroAssets}, SeverityRed},
		{"one asset is enough", with(func(o *Observed) { o.ReleaseAssets = 1 }), []DriftKind{}, SeverityOK},
		// combinations
		{"stale and un-rolled", with(func(o *Observed) { o.RunningTag = "v1.2.2"; o.LatestTag = "v1.3.0" }),
			[]DriftKind{DriftStale, DriftUnrolled}, SeverityYellow},
		{"stale and zero assets", with(func(o *Observed) { o.LatestTag = "v1.3.0"; o.ReleaseAssets = 0 }),
			[]DriftKind{DriftStale, DriftZeroAssets}, SeverityRed},
		{"un-rolled and no release", with(func(o *Observed) { o.RunningTag = "v1.2.2"; o.ReleaseURL = "" }),
			[]DriftKind{DriftUnrolled, DriftNoRelease}, SeverityRed},
		{"everything at once", Observed{DeclaredTag: "latest", RunningTag: "dev", LatestTag: "v2.0.0", ReleaseURL: ""},
			[]DriftKind{DriftFloatingDeclared, DriftFloatingRunning, DriftUnrolled, DriftNoRelease}, SeverityRed},
		{"every semver rule at once", Observed{DeclaredTag: "v1.0.0", RunningTag: "edge", LatestTag: "v2.0.0"},
			[]DriftKind{DriftFloatingRunning, DriftStale, DriftUnrolled, DriftNoRelease}, SeverityRed},
		{"floating declared with release and zero assets", Observed{DeclaredTag: "latest", RunningTag: "latest", LatestTag: "v2.0.0", ReleaseURL: url},
			[]DriftKind{DriftFloatingDeclared, DriftFloatingRunning, DriftZeroAssets}, SeverityRed},
		{"same floating tag both sides is not un-rolled", Observed{DeclaredTag: "latest", RunningTag: "latest", ReleaseURL: url, ReleaseAssets: 1},
			[]DriftKind{DriftFloatingDeclared, DriftFloatingRunning}, SeverityRed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := ComputeDrift(tt.in)
			if diff := cmp.Diff(tt.want, kinds(d)); diff != "" {
				t.Errorf("kinds (-want +got):\n%s", diff)
			}
			if d.Severity != tt.sev {
				t.Errorf("severity = %q, want %q", d.Severity, tt.sev)
			}
			if diff := cmp.Diff(ComputeDriftFlags(tt.in), nilIfEmpty(d.Flags)); diff != "" {
				t.Errorf("ComputeDrift and ComputeDriftFlags disagree (-flags +drift):\n%s", diff)
			}
		})
	}
}

func nilIfEmpty(f []DriftFlag) []DriftFlag {
	if len(f) == 0 {
		return nil
	}
	return f
}

func TestFlagSeveritiesAndMessages(t *testing.T) {
	t.Parallel()
	o := Observed{DeclaredTag: "latest", RunningTag: "edge", LatestTag: "v2.0.0", ReleaseURL: url}
	got := ComputeDriftFlags(o)
	want := []DriftFlag{
		{DriftFloatingDeclared, SeverityRed, `Declared tag "latest" is not a vX.Y.Z release tag: the operator runs it, but what runs can change under the same name.`},
		{DriftFloatingRunning, SeverityRed, `The cluster runs floating tag "edge", not a vX.Y.Z release tag.`},
		{DriftUnrolled, SeverityYellow, "Declared latest has not rolled out; the cluster still runs edge."},
		{DriftZeroAssets, SeverityRed, "The release for latest has no assets."},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("flags (-want +got):\n%s", diff)
	}
	stale := ComputeDriftFlags(Observed{DeclaredTag: "v1.0.0", LatestTag: "v1.1.0", ReleaseURL: url, ReleaseAssets: 1})
	if diff := cmp.Diff([]DriftFlag{{DriftStale, SeverityYellow, "Release v1.1.0 exists but v1.0.0 is declared."}}, stale); diff != "" {
		t.Errorf("stale (-want +got):\n%s", diff)
	}
	noRel := ComputeDriftFlags(Observed{DeclaredTag: "v1.0.0"})
	if diff := cmp.Diff([]DriftFlag{{DriftNoRelease, SeverityRed, "No GitHub release found for declared tag v1.0.0."}}, noRel); diff != "" {
		t.Errorf("no-release (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]DriftFlag{{DriftZeroAssets, SeverityRed, "The release for the declared tag has no assets."}},
		ComputeDriftFlags(Observed{ReleaseURL: url})); diff != "" {
		t.Errorf("zero-assets without a declared tag (-want +got):\n%s", diff)
	}
}

func TestComputeDriftFlagsNilWhenClean(t *testing.T) {
	t.Parallel()
	if f := ComputeDriftFlags(Observed{}); f != nil {
		t.Errorf("ComputeDriftFlags(clean) = %#v, want nil", f)
	}
	if f := ComputeDrift(Observed{}).Flags; f == nil {
		t.Error("ComputeDrift(clean).Flags is nil; JSON would be null")
	}
}

func BenchmarkComputeDrift(b *testing.B) {
	rows := []Observed{
		{DeclaredTag: "v1.2.3", RunningTag: "v1.2.3", LatestTag: "v1.2.3", ReleaseURL: url, ReleaseAssets: 3},
		{DeclaredTag: "v1.2.3", RunningTag: "v1.2.2", LatestTag: "v1.3.0", ReleaseURL: url},
		{DeclaredTag: "latest", RunningTag: "sha-abc", LatestTag: "v1.3.0"},
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = ComputeDrift(rows[i%len(rows)])
	}
}
