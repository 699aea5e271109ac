package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

var setSize = flag.Int("set-size", 12, "apps restarted at once by TestRestartSetByQuery (50 for the figure in docs/commands.md)")

// rolloutCounter watches every Deployment in resourceVersion order and
// counts restarts that are under way: from the patch that sets
// restartedAt until the rollout completes by kubectl's rules (the same
// WaitRollout applies). The most ever under way at once is max.
type rolloutCounter struct {
	mu        sync.Mutex
	underway  map[string]bool
	max       int
	restarted map[string]bool
}

func countRollouts(ctx context.Context, t *testing.T, c *testcluster.Cluster, ns string) *rolloutCounter {
	w, err := c.AdminClient().AppsV1().Deployments(ns).Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rc := &rolloutCounter{underway: map[string]bool{}, restarted: map[string]bool{}}
	go func() {
		for ev := range w.ResultChan() {
			d, ok := ev.Object.(*appsv1.Deployment)
			if !ok || ev.Type == watch.Deleted {
				continue
			}
			rc.mu.Lock()
			if d.Spec.Template.Annotations[model.RestartedAtAnnotation] != "" {
				rc.restarted[d.Name] = true
				complete := d.Status.ObservedGeneration >= d.Generation && d.Status.UpdatedReplicas >= *d.Spec.Replicas &&
					d.Status.Replicas <= d.Status.UpdatedReplicas && d.Status.AvailableReplicas >= d.Status.UpdatedReplicas
				rc.underway[d.Name] = !complete
			}
			n := 0
			for _, u := range rc.underway {
				if u {
					n++
				}
			}
			rc.max = max(rc.max, n)
			rc.mu.Unlock()
		}
	}()
	t.Cleanup(w.Stop)
	return rc
}

func setLines(t *testing.T, out string) []setLine {
	t.Helper()
	var lines []setLine
	for _, s := range strings.Split(strings.TrimSpace(out), "\n") {
		var l setLine
		if err := json.Unmarshal([]byte(s), &l); err != nil {
			t.Fatalf("not a JSON line: %q: %v", s, err)
		}
		lines = append(lines, l)
	}
	return lines
}

func statuses(lines []setLine) map[string]string {
	m := map[string]string{}
	for _, l := range lines {
		m[l.App] = l.Status
	}
	return m
}

// `restart -q` against a real API server with kwok: without --yes it lists
// and changes nothing; with it, every selected App is restarted and rolled,
// never more than --max-parallel under way at once; a stuck rollout
// mid-set stops new starts.
func TestRestartSetByQuery(t *testing.T) {
	// Restarts are made as an IAM identity, on an API server that trusts
	// the test issuer and is declared with --iam-cluster (as in cluster_test).
	iss := startTLSIssuer(t)
	c := testcluster.Start(t, testcluster.Options{Controllers: true, AuthenticationConfig: iss.AuthenticationConfig("hanzo-cli", "iam:")})
	c.CreateNamespaces("hanzo", "hanzo-testnet", "hanzo-devnet")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	n := *setSize
	var names []string
	for i := range n {
		names = append(names, fmt.Sprintf("svc-%02d", i))
	}
	seeds := []struct{ ns, name, role string }{{"hanzo", "iam", "service"}, {"hanzo-testnet", "frozen", "queue"}}
	for _, name := range names {
		seeds = append(seeds, struct{ ns, name, role string }{"hanzo-testnet", name, "service"})
	}
	for _, name := range []string{"a-1", "a-2", "b-stuck", "c-1", "c-2"} {
		seeds = append(seeds, struct{ ns, name, role string }{"hanzo-devnet", name, "service"})
	}
	for _, s := range seeds {
		if err := c.SeedApp(ctx, s.ns, s.name, s.role, "ghcr.io/hanzoai/"+s.name, "v1.0.0", 1); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range seeds {
		waitReady(ctx, t, c, s.ns, s.name)
	}
	patchJSON(t, c, "hanzo-testnet", "frozen", "Deployment", `{"spec":{"paused":true}}`)
	// b-stuck's next pods can never be scheduled, and it says so after 2 s.
	patchJSON(t, c, "hanzo-devnet", "b-stuck", "Deployment",
		`{"spec":{"progressDeadlineSeconds":2,"template":{"spec":{"nodeSelector":{"driftboard-test":"nowhere"}}}}}`)

	grantClusterAdmin(ctx, t, c, "iam:u-ops")
	e := newEnv(t)
	e.trustIssuerCA(t, iss)
	e.loginAs(iss, iss.token(t, "u-ops", "ops@hanzo.ai", orgRole{"admin", "admin"}))
	base := []string{"--kubeconfig", c.KubeconfigPath(), "--releases=off", "--iam-cluster", "test", "-o", "json"}
	run := func(args ...string) result { return e.run(t, append(append([]string{"restart"}, args...), base...)...) }

	t.Run("without --yes it lists what it would do, refusals included, and exits 0", func(t *testing.T) {
		r := run("-q", "env:test")
		r.expect(t, ExitOK, "1 would be refused; nothing was changed")
		got := statuses(setLines(t, r.out))
		if len(got) != n+1 || got["frozen"] != "refused" || got["svc-00"] != "would-restart" || got["iam"] != "" {
			t.Fatalf("want %d would-restart and frozen refused:\n%s", n, r.out)
		}
		// Production is restarted only when the query names it.
		r = run("-q", "role:service -ns:hanzo-*net", "--yes")
		r.expect(t, ExitError, "0 restarted, 0 failed, 0 not started, 1 refused")
		if l := setLines(t, r.out); len(l) != 1 || l[0].App != "iam" || l[0].Status != "refused" || !strings.Contains(l[0].Detail, "env:main") {
			t.Fatalf("want iam in production refused for want of env:main:\n%s", r.out)
		}
		if got := statuses(setLines(t, run("-q", "env:main role:service").out)); got["iam"] != "would-restart" {
			t.Fatalf("env:main names production, want iam would-restart: %v", got)
		}
		if got := statuses(setLines(t, run("-q", "ENV:main role:service").out)); got["iam"] != "would-restart" {
			t.Fatalf("ENV:main names production too (the parsed query decides), want iam would-restart: %v", got)
		}
		// On a terminal it asks for the board's set confirmation; any other
		// answer sends nothing.
		tty := *e
		tty.inTerminal, tty.stdin = true, "yes\n"
		r = tty.run(t, append([]string{"restart", "-q", "env:main role:service"}, base...)...)
		r.expect(t, ExitError, `type exactly "restart 1 app"`)
		if at := deployment(t, c, "hanzo", "iam").restartedAt; at != "" {
			t.Fatalf("iam was restarted on a wrong answer (at %s)", at)
		}
		for _, name := range append(names, "frozen") {
			if at := deployment(t, c, "hanzo-testnet", name).restartedAt; at != "" {
				t.Fatalf("%s was restarted without --yes (at %s)", name, at)
			}
		}
	})

	t.Run("with --yes every App is restarted, at most 3 at once", func(t *testing.T) {
		rc := countRollouts(ctx, t, c, "hanzo-testnet")
		begin := time.Now()
		r := run("-q", "env:test role:service", "--max-parallel", "3", "--wait", "--yes")
		elapsed := time.Since(begin)
		r.expect(t, ExitOK, fmt.Sprintf("%d restarted, 0 failed, 0 not started, 0 refused", n))
		lines := setLines(t, r.out)
		for _, l := range lines {
			if l.Status != "restarted" || !l.Rolled || l.At == "" || l.By != "iam:u-ops" {
				t.Errorf("want restarted and rolled by iam:u-ops: %+v", l)
			}
		}
		if len(lines) != n {
			t.Fatalf("%d lines, want %d:\n%s", len(lines), n, r.out)
		}
		for _, name := range names {
			if deployment(t, c, "hanzo-testnet", name).restartedAt == "" {
				t.Errorf("%s was not restarted", name)
			}
		}
		if got := restartEvents(t, c, "hanzo-testnet"); got != n {
			t.Errorf("%d Restarted events, want %d", got, n)
		}
		time.Sleep(time.Second) // the counter's watch may lag the command's last rollout
		rc.mu.Lock()
		defer rc.mu.Unlock()
		if len(rc.restarted) != n || rc.max > 3 || rc.max < 2 {
			t.Errorf("saw %d restarts, at most %d under way at once; want %d and at most 3 (and some at once)", len(rc.restarted), rc.max, n)
		}
		t.Logf("%d apps restarted and rolled out with --max-parallel 3 in %s (at most %d under way at once)", n, elapsed.Round(10*time.Millisecond), rc.max)
	})

	t.Run("a failure mid-set stops new starts, one at a time as the config says", func(t *testing.T) {
		// One at a time, from the config file: no --max-parallel flag.
		writeFile(t, filepath.Join(e.vars["XDG_CONFIG_HOME"], "driftboard"), "config.yaml", "restart:\n  maxParallel: 1\n")
		rc := countRollouts(ctx, t, c, "hanzo-devnet")
		r := run("-q", "env:dev", "--wait", "--yes")
		r.expect(t, ExitError, "2 restarted, 1 failed, 2 not started, 0 refused", "new starts stopped")
		want := map[string]string{"a-1": "restarted", "a-2": "restarted", "b-stuck": "failed", "c-1": "not-started", "c-2": "not-started"}
		if got := statuses(setLines(t, r.out)); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("statuses %v, want %v\n%s", got, want, r.out)
		}
		time.Sleep(time.Second) // the counter's watch may lag the command
		rc.mu.Lock()
		if rc.max != 1 {
			t.Errorf("%d rollouts under way at once, want 1 (restart.maxParallel: 1)", rc.max)
		}
		rc.mu.Unlock()
		for _, name := range []string{"c-1", "c-2"} {
			if at := deployment(t, c, "hanzo-devnet", name).restartedAt; at != "" {
				t.Errorf("%s was started after the failure (at %s)", name, at)
			}
		}
	})
}
