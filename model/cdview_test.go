package model

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hanzoai/driftboard/drift"
)

func cdFixture() CDView {
	done := time.Date(2026, 12, 1, 7, 0, 0, 0, time.UTC)
	return NewCDView("", []*CDApplication{{
		Group: "apps.hanzo.ai", Namespace: "hanzo-cd", Name: "universe-crs", Path: "infra/k8s/operator/crs",
		Revision:  "abc1234def5678abc1234def5678abc1234def56",
		Operation: CDOperation{Phase: "Succeeded", Message: "successfully synced", FinishedAt: done},
		Resources: []CDResource{
			{Group: "hanzo.ai", Kind: "App", Namespace: "hanzo", Name: "iam", Status: "OutOfSync", Health: "Healthy"},
			{Group: "hanzo.ai", Kind: "App", Namespace: "hanzo", Name: "kms", Status: "Synced"},
			{Group: "hanzo.ai", Kind: "App", Namespace: "hanzo", Name: "odd", Status: "Unknown"},
		},
	}})
}

func TestGitSyncOf(t *testing.T) {
	t.Parallel()
	cd := cdFixture()
	last := &CDOperation{Phase: "Succeeded", Message: "successfully synced", FinishedAt: cd.Apps[0].Operation.FinishedAt}
	for _, tt := range []struct {
		name string
		cd   CDView
		obj  [4]string
		want GitSync
	}{
		{"out of sync", cd, [4]string{"hanzo.ai", "App", "hanzo", "iam"}, GitSync{State: GitOutOfSync,
			Application: "apps.hanzo.ai/hanzo-cd/universe-crs", Revision: "abc1234", Path: "infra/k8s/operator/crs", Health: "Healthy", LastSync: last}},
		{"synced", cd, [4]string{"hanzo.ai", "App", "hanzo", "kms"}, GitSync{State: GitSynced,
			Application: "apps.hanzo.ai/hanzo-cd/universe-crs", Revision: "abc1234", Path: "infra/k8s/operator/crs", LastSync: last}},
		{"status not reported", cd, [4]string{"hanzo.ai", "App", "hanzo", "odd"}, GitSync{State: GitUnknown,
			Why: "the Application reports no sync status for it", Application: "apps.hanzo.ai/hanzo-cd/universe-crs",
			Revision: "abc1234", Path: "infra/k8s/operator/crs", LastSync: last}},
		{"other namespace is not the same object", cd, [4]string{"hanzo.ai", "App", "hanzo-devnet", "iam"},
			GitSync{State: GitNotManaged, Why: "no Application lists it"}},
		{"a Service of the same name is not the App", cd, [4]string{"hanzo.ai", "Service", "hanzo", "iam"},
			GitSync{State: GitNotManaged, Why: "no Application lists it"}},
		{"no kind served", NewCDView(GitWhyNoKind, nil), [4]string{"hanzo.ai", "App", "hanzo", "iam"},
			GitSync{State: GitUnknown, Why: GitWhyNoKind}},
		{"forbidden is not unmanaged", NewCDView(GitWhyForbidden, nil), [4]string{"hanzo.ai", "App", "hanzo", "iam"},
			GitSync{State: GitUnknown, Why: GitWhyForbidden}},
		{"capped list cannot prove absence", NewCDView("", []*CDApplication{{ResourcesCapped: true}}),
			[4]string{"hanzo.ai", "App", "hanzo", "iam"}, GitSync{State: GitUnknown, Why: GitWhyNotCounted}},
	} {
		got := GitSyncOf(tt.cd, tt.obj[0], tt.obj[1], tt.obj[2], tt.obj[3])
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("%s: GitSyncOf (-want +got):\n%s", tt.name, d)
		}
	}
	if w := GitWords(GitSync{State: GitUnknown, Why: GitWhyNoKind}); w != "not managed by CD (no Application kind served)" {
		t.Errorf("GitWords(no kind) = %q", w)
	}
}

func TestGitNextStep(t *testing.T) {
	t.Parallel()
	row := func(kind, declared, latest string, flags []drift.DriftKind, g GitSync) *AppView {
		v := &AppView{Kind: kind, DeclaredTag: declared, LatestTag: latest, Git: g}
		for _, f := range flags {
			v.Drift.Flags = append(v.Drift.Flags, drift.DriftFlag{Kind: f})
		}
		return v
	}
	synced := GitSync{State: GitSynced, Revision: "abc1234", Path: "infra/k8s/operator/crs"}
	outOf := GitSync{State: GitOutOfSync, Revision: "abc1234"}
	stale, unrolled := []drift.DriftKind{drift.DriftStale}, []drift.DriftKind{drift.DriftUnrolled}
	for _, tt := range []struct {
		v    *AppView
		want string
	}{
		{row("App", "v1.2.3", "v1.3.0", stale, synced), "git still declares v1.2.3 — commit v1.3.0 to infra/k8s/operator/crs"},
		{row("App", "v1.4.0", "v1.3.0", stale, synced), ""}, // declared is newer: nothing to commit
		{row("App", "v1.3.0", "v1.3.0", unrolled, synced), "git declares v1.3.0 (commit abc1234) and the cluster has it: the rollout has not finished"},
		{row("App", "v1.2.3", "v1.3.0", stale, outOf), "git declares a different App spec (commit abc1234), sync pending"},
		{row(KindChart, "v1.3.0", "v1.3.0", unrolled, outOf), "git declares v1.3.0 (commit abc1234), sync pending"},
		{row("App", "v1.2.3", "v1.3.0", nil, synced), ""},                                          // no drift, no step
		{row("App", "v1.2.3", "v1.3.0", stale, GitSync{State: GitNotManaged}), ""},                 // nothing observed
		{row("App", "v1.2.3", "v1.3.0", stale, GitSync{State: GitUnknown, Why: GitWhyNoKind}), ""}, // nothing observed
	} {
		if got := GitNextStep(tt.v); got != tt.want {
			t.Errorf("GitNextStep(%s %s→%s, %s) = %q, want %q", tt.v.Kind, tt.v.DeclaredTag, tt.v.LatestTag, tt.v.Git.State, got, tt.want)
		}
	}
	op := &CDOperation{Phase: "Failed", Message: "one or more objects failed"}
	v := row("App", "v1.2.3", "v1.3.0", stale, GitSync{State: GitOutOfSync, LastSync: op})
	if got := GitNextStep(v); !strings.Contains(got, "the last sync failed: one or more objects failed") {
		t.Errorf("GitNextStep after a failed sync = %q", got)
	}
}

func TestBuildChart(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	k := Key{Cluster: "c", Namespace: "hanzo", Name: "billing"}
	one := int32(1)
	dep := func(image string) *Workload {
		return &Workload{Kind: KindDeployment, Name: "billing", Replicas: &one, ReadyReplicas: 1, UpdatedReplicas: 1, AvailableReplicas: 1,
			Containers: []Container{{Name: "billing", Image: image}},
			PodSets:    []PodSet{{Name: "rs", Containers: []Container{{Name: "billing", Image: image}}, Replicas: 1, Available: 1, Current: true}}}
	}
	helm := &CDApplication{Group: "apps.hanzo.ai", Namespace: "hanzo-cd", Name: "billing", Chart: "billing",
		Image: CDImage{Repository: "ghcr.io/hanzoai/billing", Tag: "v1.3.0", From: "helm parameter image.tag"}}
	rel := Release{State: ReleaseOff}

	v := BuildChart(helm, k, dep("ghcr.io/hanzoai/billing:v1.2.0"), rel, now)
	if v.Kind != KindChart || v.DeclaredTag != "v1.3.0" || v.RunningTag != "v1.2.0" || !v.HasFlag(drift.DriftUnrolled) {
		t.Errorf("helm-declared chart row: kind %s declared %s running %s flags %v", v.Kind, v.DeclaredTag, v.RunningTag, v.Drift.Flags)
	}
	if len(v.Problems) != 0 {
		t.Errorf("a chart's Deployment is CD's, not a legacy workload: problems %v", v.Problems)
	}
	if v.Chart == nil || v.Chart.TagFrom != "helm parameter image.tag" || v.Chart.Application != "apps.hanzo.ai/hanzo-cd/billing" {
		t.Errorf("chart source = %+v", v.Chart)
	}

	bare := &CDApplication{Group: "argoproj.io", Namespace: "argocd", Name: "billing", Chart: "billing"}
	v = BuildChart(bare, k, dep("oci.hanzo.ai/hanzo/billing:v1.2.0"), rel, now)
	if v.DeclaredTag != "v1.2.0" || v.Registry != "oci.hanzo.ai/hanzo/billing" || !strings.Contains(v.Chart.TagFrom, "Deployment's template") {
		t.Errorf("tag from the Deployment: declared %q registry %q from %q", v.DeclaredTag, v.Registry, v.Chart.TagFrom)
	}

	v = BuildChart(bare, k, nil, rel, now)
	if v.DeclaredTag != "" || len(v.Drift.Flags) != 0 || !v.HasProblem(ProblemNoImage) {
		t.Errorf("no facts: declared %q flags %v problems %v (want unknown, said so)", v.DeclaredTag, v.Drift.Flags, v.Problems)
	}

	if !IsChartApplication(helm) || IsChartApplication(&CDApplication{Chart: "x", Resources: []CDResource{{Group: "hanzo.ai", Kind: "App", Name: "x"}}}) ||
		IsChartApplication(&CDApplication{Path: "infra/k8s/operator/crs"}) {
		t.Error("IsChartApplication: a Helm Application with no App CR is a chart; one listing App CRs or with no Helm source is not")
	}
	keys := ChartRowKeys(&CDApplication{Cluster: "c", Name: "app", DestNS: "hanzo", Resources: []CDResource{
		{Group: "apps", Kind: "Deployment", Namespace: "hanzo", Name: "api"}, {Group: "", Kind: "Service", Namespace: "hanzo", Name: "api"}}})
	if len(keys) != 1 || keys[0] != (Key{Cluster: "c", Namespace: "hanzo", Name: "api"}) {
		t.Errorf("ChartRowKeys = %v, want the Deployment's", keys)
	}
}

// One Application listing 10,000 App CRs (a large universe-crs): what an
// Application change costs (the view is rebuilt once), and a row's lookup.
func BenchmarkCDView10k(b *testing.B) {
	a := &CDApplication{Group: "apps.hanzo.ai", Namespace: "hanzo-cd", Name: "universe-crs"}
	for i := range 10000 {
		a.Resources = append(a.Resources, CDResource{Group: "hanzo.ai", Kind: "App", Namespace: "hanzo", Name: fmt.Sprintf("app-%05d", i), Status: "Synced"})
	}
	b.Run("rebuild", func(b *testing.B) {
		for b.Loop() {
			NewCDView("", []*CDApplication{a})
		}
	})
	v := NewCDView("", []*CDApplication{a})
	b.Run("row", func(b *testing.B) {
		for b.Loop() {
			GitSyncOf(v, "hanzo.ai", "App", "hanzo", "app-04711")
		}
	})
}
