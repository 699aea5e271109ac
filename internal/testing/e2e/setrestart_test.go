package e2e

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
	"github.com/hanzoai/driftboard/ui"
)

// opsIdentity is a logged-in SuperAdmin for the board; the cluster acts
// with the admin kubeconfig (RBAC decides, the restarts are real).
type opsIdentity struct{}

func (opsIdentity) Current() ui.IdentityState {
	p := model.NewPrincipal(model.Claims{Subject: "u-ops", PreferredUsername: "ops", Orgs: []model.OrgRole{{Org: "admin", Role: "admin"}}})
	return ui.IdentityState{Principal: &p, Expiry: time.Now().Add(time.Hour), Source: "test"}
}

func (opsIdentity) Login(context.Context, func(ui.LoginPrompt)) error { return nil }

// The board's set restart on a real control plane with kwok: every row
// marked with "*", R lists the paused one as refused before asking, the
// typed count starts them, never more than 3 rollouts under way at once.
func TestBoardSetRestart(t *testing.T) {
	t.Parallel()
	c := testcluster.Start(t, testcluster.Options{Controllers: true})
	c.CreateNamespaces("hanzo-testnet")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	apps := append(names("svc", 12), "frozen")
	seedApps(t, c, "hanzo-testnet", apps, "v1.0.0")
	if _, err := c.AdminClient().AppsV1().Deployments("hanzo-testnet").Patch(ctx, "frozen", types.StrategicMergePatchType,
		[]byte(`{"spec":{"paused":true}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	f := startFleet(t, c.AdminConfig(), kube.FleetOptions{})
	waitBoard(t, f, 60*time.Second, "13 settled rows, frozen paused", func(s *store.Snapshot) bool {
		n := 0
		for _, r := range s.Rows() {
			if r.Workload.Rollout == model.RolloutComplete || r.App == "frozen" && r.Workload.Paused {
				n++
			}
		}
		return n == 13
	})

	// Count rollouts under way, in the API server's order of events.
	w, err := c.AdminClient().AppsV1().Deployments("hanzo-testnet").Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	var mu sync.Mutex
	underway, restarted, most := map[string]bool{}, map[string]bool{}, 0
	go func() {
		for ev := range w.ResultChan() {
			d, ok := ev.Object.(*appsv1.Deployment)
			if !ok || d.Spec.Template.Annotations[model.RestartedAtAnnotation] == "" {
				continue
			}
			mu.Lock()
			restarted[d.Name] = true
			underway[d.Name] = !(d.Status.ObservedGeneration >= d.Generation && d.Status.UpdatedReplicas >= *d.Spec.Replicas &&
				d.Status.Replicas <= d.Status.UpdatedReplicas && d.Status.AvailableReplicas >= d.Status.UpdatedReplicas)
			n := 0
			for _, u := range underway {
				if u {
					n++
				}
			}
			most = max(most, n)
			mu.Unlock()
		}
	}()

	dark := true
	m := boardOf(f, opsIdentity{}, func(o *ui.Options) { o.NoColor, o.DarkBackground = true, &dark })
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(160, 60))
	var seen bytes.Buffer
	waitText := func(s string, d time.Duration) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			seen.Write(b)
			return bytes.Contains(seen.Bytes(), []byte(s))
		}, teatest.WithDuration(d))
		seen.Reset()
	}
	waitText("svc-011", 30*time.Second)
	tm.Send(tea.KeyPressMsg{Code: '*', Text: "*"})
	tm.Send(tea.KeyPressMsg{Code: 'R', Text: "R"})
	waitText("type 12:", 30*time.Second)
	for _, r := range "12" {
		tm.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitText("12 restarted, 0 failed, 0 not started, 1 refused", 3*time.Minute)
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second) // the counter's watch may trail the board's
	mu.Lock()
	defer mu.Unlock()
	if len(restarted) != 12 || restarted["frozen"] || most > 3 || most < 2 {
		t.Errorf("restarted %d (frozen: %v), at most %d rollouts under way at once; want 12, not frozen, at most 3", len(restarted), restarted["frozen"], most)
	}
	t.Logf("at most %d rollouts under way at once", most)
}
