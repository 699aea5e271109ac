package model

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hanzoai/driftboard/drift"
)

func planRow(change func(*AppObject, **Workload)) *AppView {
	a, wl := baseApp(), baseWorkload()
	change(&a, &wl)
	v := Build(a, wl, foundRelease(), t0)
	return &v
}

func TestPlanRestartRepullsTheTemplateTag(t *testing.T) {
	t.Parallel()
	// The App declares v1.3.0; the operator has not written it to the
	// template yet, so new pods pull the template's v1.2.3.
	p := PlanRestart(planRow(func(a *AppObject, _ **Workload) { a.ImageTag = "v1.3.0" }))
	if p.Repulls != "v1.2.3" || p.Declared != "v1.3.0" {
		t.Fatalf("repulls %q declared %q, want the template's v1.2.3 and the declared v1.3.0", p.Repulls, p.Declared)
	}
	if !strings.Contains(p.Effect(), "ghcr.io/hanzoai/iam:v1.2.3") {
		t.Errorf("effect %q does not name the template's image", p.Effect())
	}
	ws := strings.Join(p.Warnings, "\n")
	for _, want := range []string{"declares v1.3.0", "still has v1.2.3", "will not fix", "changes no tag and no release", CRDirectory} {
		if !strings.Contains(ws, want) {
			t.Errorf("warnings lack %q:\n%s", want, ws)
		}
	}
	if strings.Contains(ws, ".yaml") {
		t.Errorf("warnings guess a CR file name instead of naming the directory:\n%s", ws)
	}
	if diff := cmp.Diff([]drift.DriftKind{drift.DriftStale, drift.DriftUnrolled}, p.NotFixed); diff != "" {
		t.Errorf("not fixed (-want +got):\n%s", diff)
	}
}

func TestPlanRestartNotFixed(t *testing.T) {
	t.Parallel()
	flags := func(ks ...drift.DriftKind) []drift.DriftFlag {
		var fs []drift.DriftFlag
		for _, k := range ks {
			fs = append(fs, drift.DriftFlag{Kind: k})
		}
		return fs
	}
	row := func(declared, template string, ks ...drift.DriftKind) *AppView {
		return &AppView{App: "iam", Env: EnvTest, DeclaredTag: declared, RunningTag: "v1.0.0",
			Workload: WorkloadView{Kind: KindDeployment, Name: "iam", Found: true, SpecTag: template},
			Drift:    drift.Drift{Flags: flags(ks...)}}
	}
	tests := []struct {
		name string
		row  *AppView
		want []drift.DriftKind
	}{
		{"clean", row("v1.0.0", "v1.0.0"), nil},
		{"un-rolled, template caught up: new pods run the declared tag", row("v2.0.0", "v2.0.0", drift.DriftUnrolled), nil},
		{"un-rolled, template lags", row("v2.0.0", "v1.0.0", drift.DriftUnrolled), []drift.DriftKind{drift.DriftUnrolled}},
		{"declaration and release drift", row("latest", "latest", drift.DriftFloatingDeclared, drift.DriftFloatingRunning, drift.DriftStale, drift.DriftNoRelease, drift.DriftZeroAssets),
			[]drift.DriftKind{drift.DriftFloatingDeclared, drift.DriftFloatingRunning, drift.DriftStale, drift.DriftNoRelease, drift.DriftZeroAssets}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := PlanRestart(tt.row)
			if diff := cmp.Diff(tt.want, p.NotFixed); diff != "" {
				t.Errorf("not fixed (-want +got):\n%s", diff)
			}
			if got := strings.Contains(strings.Join(p.Warnings, " "), "will not fix"); got != (len(tt.want) > 0) {
				t.Errorf("warnings %q say will-not-fix = %v", p.Warnings, got)
			}
		})
	}
}

func TestPlanRestartBlocked(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		change func(*AppObject, **Workload)
		want   string
	}{
		{"restartable", func(*AppObject, **Workload) {}, ""},
		{"missing", func(_ *AppObject, wl **Workload) { *wl = nil }, "Deployment hanzo/iam does not exist"},
		{"role makes none", func(a *AppObject, wl **Workload) { a.Role, *wl = "ingress", nil }, "Role ingress makes no workload"},
		{"paused", func(_ *AppObject, wl **Workload) { (*wl).Paused = true }, "kubectl rollout resume deployment/iam -n hanzo"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a, wl := baseApp(), baseWorkload()
			tt.change(&a, &wl)
			v := Build(a, wl, foundRelease(), t0)
			got := PlanRestart(&v).Blocked
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("blocked %q, want %q", got, tt.want)
			}
			// kube decides from the observed workload: the same words.
			if kubeWhy := WorkloadRestartBlock(a.Key, a.Role, wl); kubeWhy != got {
				t.Errorf("WorkloadRestartBlock %q ≠ plan %q", kubeWhy, got)
			}
		})
	}
}

func TestPlanRestartConfirmation(t *testing.T) {
	t.Parallel()
	prod := PlanRestart(planRow(func(*AppObject, **Workload) {}))
	if !prod.MustType || !strings.Contains(prod.Prompt(), "type the App's name (iam)") {
		t.Fatalf("production plan: must type %v, prompt %q", prod.MustType, prod.Prompt())
	}
	for answer, ok := range map[string]bool{"iam": true, " iam\n": true, "y": false, "IAM": false, "": false} {
		if got := prod.Confirmed(answer); got != ok {
			t.Errorf("production Confirmed(%q) = %v", answer, got)
		}
	}
	test := PlanRestart(planRow(func(a *AppObject, _ **Workload) { a.Namespace = "hanzo-testnet" }))
	if test.MustType || test.Title() != "Rolling restart of Deployment hanzo-testnet/iam in cluster prod (env test)" {
		t.Fatalf("test plan: must type %v, title %q", test.MustType, test.Title())
	}
	for answer, ok := range map[string]bool{"y": true, "YES\n": true, "iam": false, "": false, "n": false} {
		if got := test.Confirmed(answer); got != ok {
			t.Errorf("test Confirmed(%q) = %v", answer, got)
		}
	}
}

func TestRefuseTagChangeNamesTheDirectory(t *testing.T) {
	t.Parallel()
	msg := RefuseTagChange("iam", "v2").Error()
	if !strings.Contains(msg, "iam:v2") || !strings.Contains(msg, CRDirectory) || strings.Contains(msg, ".yaml") {
		t.Errorf("message %q", msg)
	}
}

func TestReadOnlyBlockSaysReadOnly(t *testing.T) {
	t.Parallel()
	for _, c := range []string{"", "prod-eu"} {
		if got := ReadOnlyBlock(c); !strings.HasPrefix(got, "read-only mode") || !strings.Contains(got, c) {
			t.Errorf("ReadOnlyBlock(%q) = %q", c, got)
		}
	}
}

// A restart of a workload the App does not own says so and what it touches;
// an owned one carries no such warning.
func TestPlanRestartWarnsOfALegacyWorkload(t *testing.T) {
	t.Parallel()
	legacy := PlanRestart(planRow(func(_ *AppObject, wl **Workload) { (*wl).OwnedByApp = false }))
	ws := strings.Join(legacy.Warnings, "\n")
	for _, want := range []string{"Legacy workload: Deployment hanzo/iam has no controller reference to the App iam",
		"operator does not own it", "touches only this Deployment", "whatever else manages this Deployment is not known here"} {
		if !strings.Contains(ws, want) {
			t.Errorf("warnings lack %q:\n%s", want, ws)
		}
	}
	owned := PlanRestart(planRow(func(*AppObject, **Workload) {}))
	if ws := strings.Join(owned.Warnings, "\n"); strings.Contains(ws, "Legacy") {
		t.Errorf("an owned workload warned of a legacy one:\n%s", ws)
	}
}
