package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui"
)

// putUniverseCRs writes Hanzo CD's Application listing iam with status and
// kms as Synced, at revision.
func putUniverseCRs(t *testing.T, c *testcluster.Cluster, status, revision string) {
	t.Helper()
	if err := c.PutUniverseCRs(context.Background(), revision, map[string]string{"iam": status, "kms": "Synced"}); err != nil {
		t.Fatal(err)
	}
}

// The board on a real API server with Hanzo CD's Application: git:out shows
// iam alone with GIT out, its detail names the Application, revision and
// last sync, and follows the status live when CD syncs it.
func TestBoardGitStateAgainstAPIServer(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo", "hanzo-cd")
	c.InstallApplicationCRD(testcluster.HanzoCDApplicationsGVR.Group)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, n := range []string{"iam", "kms"} {
		if err := c.SeedApp(ctx, "hanzo", n, "service", "ghcr.io/hanzoai/"+n, "v1.2.3", 1); err != nil {
			t.Fatal(err)
		}
	}
	putUniverseCRs(t, c, "OutOfSync", "1111111aaaaaaabbbbbbbcccccccdddddddeeeee")
	f := startFleet(t, c.AdminConfig(), kube.FleetOptions{})
	dark := true
	drv := newUIDriver(t, boardOf(f, nil, func(o *ui.Options) { o.Now, o.DarkBackground, o.InitialQuery = time.Now, &dark, "git:out" }), 160, 40)
	drv.waitFor("iam alone, out of sync", func(v string) bool {
		return strings.Contains(v, "1/2 shown") && strings.Contains(v, " iam ") && strings.Contains(v, "GIT") && strings.Contains(v, " out ")
	})
	drv.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	drv.waitFor("the detail's Git (CD) section", func(v string) bool {
		return strings.Contains(v, "out of sync: git at 1111111 declares something else (apps.hanzo.ai/hanzo-cd/universe-crs)") &&
			strings.Contains(v, "Succeeded at 2026-12-01 07:00:00Z: successfully synced")
	})
	putUniverseCRs(t, c, "Synced", "2222222aaaaaaabbbbbbbcccccccdddddddeeeee")
	drv.waitFor("the detail follows the sync", func(v string) bool {
		return strings.Contains(v, "synced with git at 2222222 by apps.hanzo.ai/hanzo-cd/universe-crs")
	})
}

// No Application CRD: the board has no GIT column, and the detail says the
// app is not managed by CD because no Application kind is served.
func TestBoardWithoutApplicationKind(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := c.SeedApp(ctx, "hanzo", "iam", "service", "ghcr.io/hanzoai/iam", "v1.2.3", 1); err != nil {
		t.Fatal(err)
	}
	f := startFleet(t, c.AdminConfig(), kube.FleetOptions{})
	if s := f.Snapshot(); len(s.Clusters) != 1 || s.Clusters[0].Phase != model.ConnLive {
		t.Fatalf("cluster without an Application CRD: %+v", s.Clusters)
	}
	dark := true
	drv := newUIDriver(t, boardOf(f, nil, func(o *ui.Options) { o.Now, o.DarkBackground = time.Now, &dark }), 160, 40)
	drv.waitFor("the row", func(v string) bool { return strings.Contains(v, "1/1 shown") && strings.Contains(v, "FLAGS") })
	if v := ansi.Strip(drv.m.View().Content); strings.Contains(v, "GIT") {
		t.Errorf("GIT column shown without an Application kind:\n%s", v)
	}
	drv.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	drv.waitFor("the detail says why there is no git state", func(v string) bool {
		return strings.Contains(v, "not managed by CD (no Application kind served)")
	})
}
