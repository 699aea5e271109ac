package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/internal/changestream"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// Against a real API server: when an App's Deployment goes, watch's next
// event for it says red (an alert on "verdict" fires), and list
// --fail-on yellow fails for it while it passes for a running one.
func TestMissingWorkloadFailsListAndAlertsWatch(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{Controllers: true})
	c.CreateNamespaces("hanzo")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	for _, name := range []string{"iam", "console"} {
		if err := c.SeedApp(ctx, "hanzo", name, "service", "ghcr.io/hanzoai/"+name, "v1.2.3", 1); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"iam", "console"} {
		waitReady(ctx, t, c, "hanzo", name)
	}
	e := newEnv(t)
	base := []string{"--kubeconfig", c.KubeconfigPath(), "--releases=off"}
	s := startWatch(t, e, base...)
	for range 2 {
		if ev := s.next(time.Minute, "the current rows"); ev.Event.Event != changestream.KindCurrent || ev.verdict(true).Verdict == "red" {
			t.Fatalf("want a current row that is not red, got %s", ev.raw)
		}
	}
	s.next(10*time.Second, "the summary")

	if err := c.AdminClient().AppsV1().Deployments("hanzo").Delete(ctx, "console", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	for {
		ev := s.next(30*time.Second, "console's Deployment gone")
		if ev.key() != "test/hanzo/console" || ev.Event.Event != changestream.KindChanged {
			t.Fatalf("want a change of console, got %s", ev.raw)
		}
		if v := ev.verdict(true); v.Verdict == "red" {
			if v.Severity != "ok" || !strings.Contains(strings.Join(ev.Changed, ","), "verdict") {
				t.Errorf("want the verdict red beside the drift severity ok, got %s", ev.raw)
			}
			break
		}
	}

	list := append([]string{"list", "-o", "json", "--fail-on", "yellow"}, base...)
	r := e.run(t, append(list, "-q", "app:console")...)
	r.expect(t, ExitDrift)
	if !strings.Contains(r.out, `"verdict": "red"`) || !strings.Contains(r.out, `"severity": "ok"`) {
		t.Errorf("list -o json of an App whose Deployment is gone:\n%s", r.out)
	}
	e.run(t, append(list, "-q", "app:iam")...).expect(t, ExitOK)
}
