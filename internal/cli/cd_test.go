package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/changestream"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// setIAMSync writes Hanzo CD's universe-crs Application listing iam with
// the given sync status (and kv as Synced).
func setIAMSync(t *testing.T, c *testcluster.Cluster, status, revision string) {
	t.Helper()
	if err := c.PutUniverseCRs(context.Background(), revision, map[string]string{"iam": status, "kv": "Synced"}); err != nil {
		t.Fatal(err)
	}
}

// list, get and watch carry the git state from a Hanzo CD Application on a
// real API server: the query term selects by it, JSON names the
// Application, revision and last sync, watch reports a status change, and a
// config that looks for another kind only leaves the state unknown.
func TestGitStateInCommands(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo", "hanzo-cd")
	c.InstallApplicationCRD(testcluster.HanzoCDApplicationsGVR.Group)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	for _, n := range []string{"iam", "kv", "lone"} {
		if err := c.SeedApp(ctx, "hanzo", n, "service", "ghcr.io/hanzoai/"+n, "v1.2.3", 1); err != nil {
			t.Fatal(err)
		}
	}
	const rev1 = "1111111aaaaaaabbbbbbbcccccccdddddddeeeee"
	setIAMSync(t, c, "OutOfSync", rev1)
	e := newEnv(t)
	base := []string{"--kubeconfig", c.KubeconfigPath(), "--releases=off"}
	run := func(args ...string) result { return e.run(t, append(args, base...)...) }

	r := run("list", "-o", "json", "-q", "git:out-of-sync")
	var doc struct {
		Apps []model.AppView `json:"apps"`
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
		t.Fatalf("list -o json: %v\n%s\n%s", err, r.out, r.err)
	}
	if len(doc.Apps) != 1 || doc.Apps[0].App != "iam" {
		t.Fatalf("git:out-of-sync listed %d rows, want iam alone:\n%s", len(doc.Apps), r.out)
	}
	g := doc.Apps[0].Git
	if g.State != model.GitOutOfSync || g.Application != "apps.hanzo.ai/hanzo-cd/universe-crs" || g.Revision != "1111111" ||
		g.LastSync == nil || g.LastSync.Phase != "Succeeded" || g.LastSync.FinishedAt.IsZero() {
		t.Errorf("iam's git in list -o json = %+v", g)
	}
	r = run("list")
	for app, want := range map[string]string{"iam": "out-of-sync", "kv": "synced", "lone": "not-managed"} {
		if got := tableCell(t, r.out, app, "GIT"); got != want {
			t.Errorf("list: %s's GIT = %q, want %q:\n%s", app, got, want, r.out)
		}
	}
	if h := strings.Fields(strings.SplitN(r.out, "\n", 2)[0]); strings.Join(h[len(h)-3:], " ") != "PHASE GIT DRIFT" {
		t.Errorf("list's GIT column should sit between PHASE and DRIFT: %q", h)
	}
	r = run("list", "-o", "wide")
	if got := tableCell(t, r.out, "iam", "GIT"); got != "out-of-sync@1111111" {
		t.Errorf("list -o wide: iam's GIT = %q, want out-of-sync@1111111:\n%s", got, r.out)
	}
	r = run("list", "-o", "json", "-q", "git:not-managed")
	if !strings.Contains(r.out, `"app": "lone"`) || strings.Contains(r.out, `"app": "kv"`) {
		t.Errorf("git:not-managed should list lone alone:\n%s", r.out)
	}
	r = run("get", "iam", "--env", "main", "-o", "json")
	if !strings.Contains(r.out, `"state": "out-of-sync"`) || !strings.Contains(r.out, `"application": "apps.hanzo.ai/hanzo-cd/universe-crs"`) {
		t.Errorf("get -o json lacks the git state:\n%s\n%s", r.out, r.err)
	}
	r = run("get", "iam", "--env", "main")
	if !strings.Contains(r.out, "out of sync: git at 1111111 declares something else") ||
		!strings.Contains(r.out, "Succeeded at 2026-12-01 07:00:00Z: successfully synced") {
		t.Errorf("get text lacks the git state:\n%s\n%s", r.out, r.err)
	}

	// watch: CD syncs iam at a new revision; one event says git changed.
	s := startWatch(t, e, base...)
	for {
		ev := s.next(time.Minute, "the current rows")
		if ev.Event.Event == changestream.KindSummary {
			break
		}
		if ev.key() == "test/hanzo/iam" {
			if v := ev.verdict(true); v.Git == nil || v.Git.State != model.GitOutOfSync {
				t.Errorf("watch's current iam lacks git out-of-sync: %s", ev.raw)
			}
		}
	}
	const rev2 = "2222222aaaaaaabbbbbbbcccccccdddddddeeeee"
	setIAMSync(t, c, "Synced", rev2)
	for {
		ev := s.next(30*time.Second, "iam's git change")
		if ev.key() != "test/hanzo/iam" || ev.Event.Event != changestream.KindChanged {
			continue // kv's revision moved too
		}
		if strings.Join(ev.Changed, ",") != "git" || ev.verdict(true).Git.State != model.GitSynced ||
			ev.verdict(true).Git.Revision != "2222222" || ev.verdict(false).Git.State != model.GitOutOfSync {
			t.Errorf("want iam's git out-of-sync → synced at 2222222, got %s", ev.raw)
		}
		break
	}

	// A config that looks only for upstream Argo CD's kind: not served here,
	// so the git state is unknown, never taken from Hanzo CD's.
	dir := filepath.Join(e.vars["XDG_CONFIG_HOME"], "driftboard")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := "cd:\n  applicationKinds: [applications.argoproj.io/v1alpha1@argocd]\n"
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	r = run("list", "-o", "json", "-q", "git:unknown")
	if !strings.Contains(r.out, `"why": "no Application kind served"`) || strings.Count(r.out, `"app": `) != 3 {
		t.Errorf("with only argoproj.io configured, every row should be unknown (no kind served):\n%s\n%s", r.out, r.err)
	}
	r = run("list") // the columns are fixed: GIT is there, and says why it is unknown
	if got := tableCell(t, r.out, "iam", "GIT"); got != "unknown(no-cd)" {
		t.Errorf("list without a served Application kind: iam's GIT = %q, want unknown(no-cd):\n%s", got, r.out)
	}
	r = run("list", "-o", "wide")
	if got := tableCell(t, r.out, "iam", "GIT"); got != "unknown(no-cd)" {
		t.Errorf("list -o wide without a served kind: iam's GIT = %q, want unknown(no-cd):\n%s", got, r.out)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte("cd:\n  applicationKinds: [apps]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r = run("list", "-o", "json")
	r.expect(t, ExitError, "cd.applicationKinds[0]")
}

// tableCell is the cell of column col in the row of app in a list table
// (cells hold no spaces).
func tableCell(t *testing.T, table, app, col string) string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(table), "\n")
	at := slices.Index(strings.Fields(lines[0]), col)
	if at < 0 {
		t.Fatalf("no %s column:\n%s", col, table)
	}
	for _, l := range lines[1:] {
		if f := strings.Fields(l); len(f) > at && f[1] == app {
			return f[at]
		}
	}
	t.Fatalf("no row for %s:\n%s", app, table)
	return ""
}
