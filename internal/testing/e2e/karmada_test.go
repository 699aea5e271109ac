package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"

	"github.com/hanzoai/driftboard/internal/testing/karmadatest"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// The built binary reading two members through a real Karmada's search
// proxy, as configured: one row per member's App, member1 under its
// context's name. With the proxy down, member2 (no context of its own) is
// offline and said so, while member1 is read direct: a tag changed on it
// reaches its row. With the proxy back, member2's change reaches its row.
func TestKarmadaBoardInATerminal(t *testing.T) {
	bin, err := builtBinary()
	if err != nil {
		t.Fatal(err)
	}
	k := karmadatest.Start(t)
	m1, m2 := testcluster.Start(t, testcluster.Options{}), testcluster.Start(t, testcluster.Options{})
	k.Join("member1", m1)
	k.Join("member2", m2)
	k.Cache("member1", "member2")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	if err := m1.SeedApp(ctx, "default", "webfront", "service", "ghcr.io/hanzoai/webfront", "v1.0.1", 1); err != nil {
		t.Fatal(err)
	}
	if err := m2.SeedApp(ctx, "default", "ledger", "service", "ghcr.io/hanzoai/ledger", "v2.0.1", 1); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	kubeconfig := filepath.Join(home, "kubeconfig")
	if err := karmadatest.WriteKubeconfig(kubeconfig, map[string]*rest.Config{"karmada": k.Host().AdminConfig(), "prod-eu": m1.AdminConfig()}); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(home, ".config")
	if err := os.MkdirAll(filepath.Join(conf, "driftboard"), 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := "karmada:\n  context: karmada\n  members:\n    member1: prod-eu\n    member2: \"\"\n"
	if err := os.WriteFile(filepath.Join(conf, "driftboard", "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + conf, "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "HANZO_HOME=" + filepath.Join(home, ".hanzo")}
	term := startTerminal(t, bin, []string{"--kubeconfig", kubeconfig, "--releases", "off"}, env)
	term.await("both members' rows through the proxy", 90*time.Second, "2/2 shown", "webfront", "prod-eu", "ledger", "member2")

	setTag := func(m *testcluster.Cluster, app, tag string) {
		t.Helper()
		patch := []byte(`{"spec":{"image":{"tag":"` + tag + `"}}}`)
		if _, err := m.AdminDynamic().Resource(testcluster.AppsGVR).Namespace("default").
			Patch(ctx, app, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	k.StopSearch()
	term.await("member2 offline for the proxy", 60*time.Second, "member2 reconnecting since", "its rows are offline")
	setTag(m1, "webfront", "v1.0.7")
	term.await("member1 read direct: its change on the board", 60*time.Second, "v1.0.7")
	if !strings.Contains(term.text(), "member2 reconnecting") {
		t.Errorf("member2 no longer said offline while the proxy is down:\n%s", term.text())
	}

	k.StartSearch()
	term.until("member2 live again", 60*time.Second, func() bool { return !strings.Contains(term.text(), "member2 reconnecting") })
	setTag(m2, "ledger", "v2.0.9")
	term.await("member2's change through the proxy", 30*time.Second, "v2.0.9", "v1.0.7")
}
