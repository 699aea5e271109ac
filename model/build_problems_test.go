package model

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hanzoai/driftboard/drift"
)

func TestBuildProblems(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		app  func(*AppObject)
		wl   func() *Workload
		want []Problem
	}{
		{"none", func(*AppObject) {}, baseWorkload, nil},
		{"decode errors", func(a *AppObject) {
			a.DecodeErrors = []string{"spec.replicas: not an integer", "status.endpoints: not a list"}
		}, baseWorkload,
			[]Problem{{Kind: ProblemMalformed, Text: "Malformed field: spec.replicas: not an integer"}, {Kind: ProblemMalformed, Text: "Malformed field: status.endpoints: not a list"}}},
		{"no image", func(a *AppObject) { a.ImageRepository, a.ImageTag = "", "" }, baseWorkload,
			[]Problem{{Kind: ProblemNoImage, Text: "No image declared (spec.image.repository is empty)."}}},
		{"no tag", func(a *AppObject) { a.ImageTag = "" }, baseWorkload,
			[]Problem{{Kind: ProblemNoTag, Text: "No tag declared (spec.image.tag is empty): the workload runs latest."}}},
		{"malformed repository", func(a *AppObject) { a.ImageRepository = "ghcr.io/Hanzo AI/iam" }, baseWorkload,
			[]Problem{{Kind: ProblemMalformed, Text: `Malformed image reference: image "ghcr.io/Hanzo AI/iam": path component "Hanzo AI" must start and end with a lowercase letter or digit.`}}},
		{"malformed tag", func(a *AppObject) { a.ImageTag = "v1 2" }, baseWorkload,
			[]Problem{{Kind: ProblemMalformed, Text: `Malformed declared tag: tag "v1 2" has invalid character ' '.`}}},
		{"tag inside repository", func(a *AppObject) { a.ImageRepository = "ghcr.io/hanzoai/iam:v1.2.3" }, baseWorkload,
			[]Problem{{Kind: ProblemTagInRepository, Text: `spec.image.repository "ghcr.io/hanzoai/iam:v1.2.3" carries a tag or digest; the tag belongs in spec.image.tag.`}}},
		{"missing deployment", func(*AppObject) {}, func() *Workload { return nil }, []Problem{{Kind: ProblemNoWorkload, Text: "Deployment iam not found."}}},
		{"missing statefulset", func(a *AppObject) { a.Role = "sql" }, func() *Workload { return nil }, []Problem{{Kind: ProblemNoWorkload, Text: "StatefulSet iam not found."}}},
		{"ingress makes no workload: not missing", func(a *AppObject) { a.Role = "ingress" }, func() *Workload { return nil }, nil},
		{"unknown role is Degraded", func(a *AppObject) { a.Role = "quantum" }, func() *Workload { return nil },
			[]Problem{{Kind: ProblemUnknownRole, Text: `Role "quantum" is unknown to the operator: it makes nothing (Degraded, UnknownRole).`}}},
		{"delegated role without image: no problem", func(a *AppObject) { a.Role, a.ImageRepository, a.ImageTag = "dns", "", "" }, func() *Workload { return nil }, nil},
		{"route-only ingress without image: no problem", func(a *AppObject) { a.Role, a.ImageRepository, a.ImageTag = "ingress", "", "" }, func() *Workload { return nil }, nil},
		{"operator says Delegated for a role this board does not know", func(a *AppObject) {
			a.Role = "newThing"
			a.Conditions = []Condition{{Type: "Ready", Status: "False", Reason: "Delegated"}}
		}, func() *Workload { return nil }, nil},
		{"service role without image is a problem", func(a *AppObject) { a.ImageRepository, a.ImageTag = "", "" }, func() *Workload { return nil },
			[]Problem{{Kind: ProblemNoImage, Text: "No image declared (spec.image.repository is empty)."}, {Kind: ProblemNoWorkload, Text: "Deployment iam not found."}}},
		{"failed upgrade", func(a *AppObject) {
			a.ImageTag = "v1.3.0"
			a.LastGoodImage = "ghcr.io/hanzoai/iam:v1.2.3"
			a.Upgrade = Upgrade{TargetImage: "ghcr.io/hanzoai/iam:v1.3.0", Phase: "Failed",
				History: []UpgradeRecord{{Image: "ghcr.io/hanzoai/iam:v1.3.0", Outcome: "RolledBack", Message: "readiness probe failed"}}}
		}, baseWorkload,
			[]Problem{{Kind: ProblemUpgradeFailed, Text: "Upgrade to v1.3.0 failed, rolled back to ghcr.io/hanzoai/iam:v1.2.3; a restart will not roll it — declare a new tag in git."}}},
		{"legacy workload", func(*AppObject) {}, func() *Workload { w := baseWorkload(); w.OwnedByApp = false; return w },
			[]Problem{{Kind: ProblemLegacyWorkload, Text: "Deployment iam is not owned by the App (legacy workload)."}}},
		{"kind mismatch", func(a *AppObject) { a.Role = "kv" }, baseWorkload,
			[]Problem{{Kind: ProblemWrongKind, Text: `Workload is a Deployment; role "kv" expects a StatefulSet.`}}},
		{"workload for a role that makes none", func(a *AppObject) { a.Role = "ingress" }, baseWorkload,
			[]Problem{{Kind: ProblemWrongKind, Text: `Role "ingress" makes no workload, but Deployment iam exists.`}}},
		{"malformed workload image", func(*AppObject) {}, func() *Workload {
			w := baseWorkload()
			w.Containers = []Container{{Name: "iam", Image: "ghcr.io/hanzoai/iam:"}}
			return w
		}, []Problem{{Kind: ProblemMalformed, Text: `Workload container iam: malformed image reference: image "ghcr.io/hanzoai/iam:": empty tag after ':'.`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := baseApp()
			tt.app(&a)
			v := Build(a, tt.wl(), foundRelease(), t0)
			if diff := cmp.Diff(tt.want, v.Problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if v.App != "iam" || v.Endpoints == nil || v.Drift.Flags == nil {
				t.Errorf("row incomplete: app %q endpoints %v flags %v", v.App, v.Endpoints, v.Drift.Flags)
			}
		})
	}
}

func TestBuildDrift(t *testing.T) {
	t.Parallel()
	const relURL = "https://github.com/hanzoai/iam/releases/tag/v1.2.3"
	tests := []struct {
		name    string
		tag     string
		wl      func() *Workload
		rel     Release
		want    []drift.DriftKind
		wantSev drift.DriftSeverity
	}{
		{"clean", "v1.2.3", baseWorkload, foundRelease(), []drift.DriftKind{}, drift.SeverityOK},
		{"stale", "v1.2.3", baseWorkload, Release{State: ReleaseFound, LatestTag: "v1.3.0", URL: relURL, Assets: 1},
			[]drift.DriftKind{drift.DriftStale}, drift.SeverityYellow},
		{"un-rolled from template", "v1.3.0", baseWorkload, Release{State: ReleaseFound, LatestTag: "v1.3.0", URL: relURL, Assets: 1},
			[]drift.DriftKind{drift.DriftUnrolled}, drift.SeverityYellow},
		{"missing workload: running unknown, not un-rolled", "v1.3.0", func() *Workload { return nil },
			Release{State: ReleaseFound, LatestTag: "v1.3.0", URL: relURL, Assets: 1}, []drift.DriftKind{}, drift.SeverityOK},
		// Unchecked releases are unknown: their flags are withheld as with checks off.
		{"pending withholds no-release", "v1.2.3", baseWorkload, Release{State: ReleasePending},
			[]drift.DriftKind{}, drift.SeverityOK},
		{"rate-limited withholds stale and no-release", "v1.2.3", baseWorkload, Release{State: ReleaseRateLimited, LatestTag: "v1.3.0"},
			[]drift.DriftKind{}, drift.SeverityOK},
		{"failed check withholds zero-assets", "v1.2.3", baseWorkload, Release{State: ReleaseError, URL: relURL},
			[]drift.DriftKind{}, drift.SeverityOK},
		{"not looked up keeps un-rolled only", "v1.3.0", baseWorkload, Release{State: ReleaseNotLooked, LatestTag: "v2.0.0"},
			[]drift.DriftKind{drift.DriftUnrolled}, drift.SeverityYellow},
		{"no state at all is not a check", "v1.2.3", baseWorkload, Release{},
			[]drift.DriftKind{}, drift.SeverityOK},
		{"checked none", "v1.2.3", baseWorkload, Release{State: ReleaseNone, LatestTag: "v1.2.3"},
			[]drift.DriftKind{drift.DriftNoRelease}, drift.SeverityRed},
		{"zero assets", "v1.2.3", baseWorkload, Release{State: ReleaseFound, LatestTag: "v1.2.3", URL: relURL},
			[]drift.DriftKind{drift.DriftZeroAssets}, drift.SeverityRed},
		{"release off hides release flags", "v1.2.3", baseWorkload, Release{State: ReleaseOff},
			[]drift.DriftKind{}, drift.SeverityOK},
		{"release off hides stale and zero assets but keeps un-rolled", "v1.3.0", baseWorkload,
			Release{State: ReleaseOff, LatestTag: "v2.0.0", URL: relURL},
			[]drift.DriftKind{drift.DriftUnrolled}, drift.SeverityYellow},
		{"release off keeps floating", "latest", func() *Workload {
			w := baseWorkload()
			w.Containers[1].Image = "ghcr.io/hanzoai/iam:latest"
			return w
		}, Release{State: ReleaseOff}, []drift.DriftKind{drift.DriftFloatingDeclared, drift.DriftFloatingRunning}, drift.SeverityRed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := baseApp()
			a.ImageTag = tt.tag
			v := Build(a, tt.wl(), tt.rel, t0)
			if diff := cmp.Diff(tt.want, kindsOf(v.Drift)); diff != "" {
				t.Errorf("flags (-want +got):\n%s", diff)
			}
			if v.Drift.Severity != tt.wantSev {
				t.Errorf("severity %q, want %q", v.Drift.Severity, tt.wantSev)
			}
			if v.Release.State != tt.rel.State {
				t.Errorf("release state %q, want %q", v.Release.State, tt.rel.State)
			}
		})
	}
}

func TestExpectedKind(t *testing.T) {
	t.Parallel()
	want := map[string]WorkloadKind{
		"": KindDeployment, "generic": KindDeployment, "service": KindDeployment, "llm": KindDeployment,
		"iam": KindDeployment, "kms": KindDeployment, "explorer": KindDeployment, "function": KindDeployment,
		"indexer": KindDeployment, "observability": KindDeployment, "queue": KindDeployment, "spa": KindDeployment,
		"static": KindDeployment, "sql": KindStatefulSet, "kv": KindStatefulSet, "docdb": KindStatefulSet,
		"s3": KindStatefulSet, "datastore": KindStatefulSet, "ingress": KindNone, "mystery": KindNone, "SQL": KindNone,
	}
	got := map[string]WorkloadKind{}
	for role := range want {
		got[role] = ExpectedKind(role)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ExpectedKind (-want +got):\n%s", diff)
	}
}

func TestEnvAndTenant(t *testing.T) {
	t.Parallel()
	tests := []struct{ ns, env, tenant string }{
		{"hanzo", "main", "hanzo"},
		{"hanzo-mainnet", "main", "hanzo"},
		{"hanzo-testnet", "test", "hanzo"},
		{"hanzo-devnet", "dev", "hanzo"},
		{"tenant-acme", "main", "acme"},
		{"tenant-", "", ""},
		{"tenant", "", ""},
		{"default", "", ""},
		{"", "", ""},
		{"hanzo-cd", "", ""},
		{"Hanzo", "", ""},
	}
	for _, tt := range tests {
		if got := []string{string(EnvOf(tt.ns)), TenantOf(tt.ns)}; !cmp.Equal(got, []string{tt.env, tt.tenant}) {
			t.Errorf("%q: env, tenant = %q, want %q, %q", tt.ns, got, tt.env, tt.tenant)
		}
	}
}
