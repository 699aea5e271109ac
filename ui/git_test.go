package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
)

func withGit(v model.AppView, g model.GitSync) model.AppView {
	v.Git = g
	return v
}

func headerLine(t *testing.T, m *Model) string {
	t.Helper()
	for _, l := range strings.Split(plainView(m), "\n") {
		if strings.Contains(l, "APP") && strings.Contains(l, "DRIFT") {
			return l
		}
	}
	t.Fatalf("no column header:\n%s", plainView(m))
	return ""
}

// An Application lists explorer (stale: v1.0.0 released, v0.9.0 declared)
// as out of sync: the GIT column, the git: query and the detail say so, and
// follow the next snapshot when CD synced it.
func TestGitColumnAndDetail(t *testing.T) {
	m, src := newTestModel(t, nil, nil, Options{}, 160, 50)
	last := &model.CDOperation{Phase: "Succeeded", Message: "successfully synced", FinishedAt: t0.Add(-time.Hour)}
	app := "apps.hanzo.ai/hanzo-cd/universe-crs"
	rows := fleet()
	for i := range rows {
		rows[i] = withGit(rows[i], model.GitSync{State: model.GitSynced, Application: app, Revision: "abc1234",
			Path: "infra/k8s/operator/crs", LastSync: last})
	}
	explorer := rows[2]
	rows[2] = withGit(explorer, model.GitSync{State: model.GitOutOfSync, Application: app, Revision: "abc1234",
		Path: "infra/k8s/operator/crs", LastSync: last})
	rows[6] = withGit(rows[6], model.GitSync{State: model.GitNotManaged, Why: "no Application lists it"})
	src.upsert(rows...)
	m.Update(snapshotMsg{src.Snapshot()})
	if h := headerLine(t, m); !strings.Contains(h, "GIT") {
		t.Fatalf("no GIT column at 160 columns: %q", h)
	}
	typeText(m, "/git:out")
	press(m, "enter")
	v := plainView(m)
	if !strings.Contains(v, "explorer") || strings.Contains(v, " iam ") || !strings.Contains(v, " out ") {
		t.Errorf("git:out should show explorer alone, with GIT out:\n%s", v)
	}
	press(m, "enter") // the detail of explorer
	v = plainView(m)
	for _, want := range []string{
		"out of sync: git at abc1234 declares something else (" + app + ")",
		"revision        abc1234",
		"last sync       Succeeded at 2026-11-30 13:00:00Z: successfully synced",
		"next step       git declares a different App spec (commit abc1234), sync pending",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("detail lacks %q:\n%s", want, v)
		}
	}
	// CD synced it: the open detail follows the snapshot.
	src.upsert(withGit(explorer, model.GitSync{State: model.GitSynced, Application: app, Revision: "def5678",
		Path: "infra/k8s/operator/crs", LastSync: last}))
	m.Update(snapshotMsg{src.Snapshot()})
	v = plainView(m)
	for _, want := range []string{"synced with git at def5678 by " + app,
		"next step       git still declares v0.9.0 — commit v1.0.0 to infra/k8s/operator/crs"} {
		if !strings.Contains(v, want) {
			t.Errorf("after the sync, detail lacks %q:\n%s", want, v)
		}
	}
}

// No cluster serves an Application kind: no GIT column; the detail says the
// row is not managed by CD and why.
func TestGitColumnAbsentWithoutApplicationKind(t *testing.T) {
	m, src := newTestModel(t, nil, nil, Options{}, 160, 50)
	rows := fleet()
	for i := range rows {
		rows[i] = withGit(rows[i], model.GitSync{State: model.GitUnknown, Why: model.GitWhyNoKind})
	}
	src.upsert(rows...)
	m.Update(snapshotMsg{src.Snapshot()})
	if h := headerLine(t, m); strings.Contains(h, "GIT") {
		t.Errorf("GIT column shown though no Application kind is served: %q", h)
	}
	selectApp(t, m, "iam")
	press(m, "enter")
	if v := plainView(m); !strings.Contains(v, "not managed by CD (no Application kind served)") {
		t.Errorf("detail does not say why there is no git state:\n%s", v)
	}
}

// GIT is decorative: on a narrow board it goes before the drift columns.
func TestGitColumnYieldsOnNarrowBoards(t *testing.T) {
	m, src := newTestModel(t, nil, nil, Options{}, 70, 30)
	rows := fleet()
	for i := range rows {
		rows[i] = withGit(rows[i], model.GitSync{State: model.GitSynced})
	}
	src.upsert(rows...)
	m.Update(snapshotMsg{src.Snapshot()})
	h := headerLine(t, m)
	for _, want := range []string{"DRIFT", "APP", "HEALTH", "FLAGS"} {
		if !strings.Contains(h, want) {
			t.Errorf("header at 70 columns lacks %s (GIT must yield first): %q", want, h)
		}
	}
}

// A chart-plane row's detail says where its facts come from.
func TestGitDetailOfChartRow(t *testing.T) {
	m, src := newTestModel(t, nil, nil, Options{}, 160, 60)
	a := &model.CDApplication{Group: "apps.hanzo.ai", Namespace: "hanzo-cd", Name: "billing", Chart: "billing",
		RepoURL: "oci://oci.hanzo.ai/charts", SyncStatus: "OutOfSync", Revision: "0.4.1",
		Image: model.CDImage{Repository: "ghcr.io/hanzoai/billing", Tag: "v1.3.0", From: "helm parameter image.tag"}}
	k := model.Key{Cluster: "prod", Namespace: "hanzo", Name: "billing"}
	v := model.BuildChart(a, k, nil, model.Release{State: model.ReleaseOff}, t0)
	v.Git = model.ChartGitSync(model.NewCDView("", []*model.CDApplication{a}), a, k)
	src.upsert(v)
	m.Update(snapshotMsg{src.Snapshot()})
	selectApp(t, m, "billing")
	press(m, "enter")
	got := plainView(m)
	for _, want := range []string{"chart · hanzo/billing", "chart           billing from oci://oci.hanzo.ai/charts (no App CR)",
		"tag from        helm parameter image.tag", "out of sync: git at 0.4.1 declares something else (apps.hanzo.ai/hanzo-cd/billing)"} {
		if !strings.Contains(got, want) {
			t.Errorf("chart detail lacks %q:\n%s", want, got)
		}
	}
}
