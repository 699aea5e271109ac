package e2e

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// The built binary as a user runs it: `driftboard --kubeconfig FILE` in a
// terminal, logged in through IAM, against a real API server that trusts the
// issuer. What the demo and the in-process tests show holds here too: y shows
// the App's resource, l streams a pod's log, the detail shows the Events,
// and a set restart of 4 Apps with restart.maxParallel 2 never has more than
// 2 rollouts under way on the API server.
func TestBinaryOnARealCluster(t *testing.T) {
	bin, err := builtBinary()
	if err != nil {
		t.Fatal(err)
	}
	iss := testcluster.NewIssuer(t)
	c := testcluster.Start(t, testcluster.Options{Controllers: true, AuthenticationConfig: iss.AuthenticationConfig("hanzo-cli", "iam:")})
	c.CreateNamespaces("hanzo", "hanzo-testnet")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	admin := c.AdminClient()

	// iam's pod runs on the node whose kubelet serves a log file.
	dir := t.TempDir()
	current, previous := filepath.Join(dir, "current.log"), filepath.Join(dir, "previous.log")
	write(t, current, os.O_CREATE|os.O_TRUNC, criLine("iam listening on :8000"))
	write(t, previous, os.O_CREATE|os.O_TRUNC, criLine("an earlier life"))
	if err := c.StartLogNode(ctx, current, previous); err != nil {
		t.Fatal(err)
	}
	app, err := c.CreateApp(ctx, "hanzo", "iam", "iam", "ghcr.io/hanzoai/iam", "v1.2.3", 1)
	if err != nil {
		t.Fatal(err)
	}
	d := testcluster.OperatorDeployment(app)
	d.Spec.Template.Spec.NodeName = testcluster.LogNodeName
	if _, err := admin.AppsV1().Deployments("hanzo").Create(ctx, d, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.CoreV1().Events("hanzo").Create(ctx, &corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{Name: "iam.e2e", Namespace: "hanzo"},
		InvolvedObject: corev1.ObjectReference{Kind: "App", APIVersion: "hanzo.ai/v1", Namespace: "hanzo", Name: "iam", UID: app.GetUID()},
		Type:           "Warning", Reason: "KeyRotationDue", Message: "signing key older than 90 days",
		Count: 1, FirstTimestamp: metav1.Now(), LastTimestamp: metav1.Now(), Source: corev1.EventSource{Component: "e2e"},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	// Four services whose rollouts last a few seconds each (minReadySeconds),
	// so rollouts that were not waited for would overlap.
	set := names("svc", 4)
	for _, n := range set {
		app, err := c.CreateApp(ctx, "hanzo-testnet", n, "service", "ghcr.io/hanzoai/"+n, "v1.0.0", 1)
		if err != nil {
			t.Fatal(err)
		}
		d := testcluster.OperatorDeployment(app)
		d.Spec.MinReadySeconds = 4
		if _, err := admin.AppsV1().Deployments("hanzo-testnet").Create(ctx, d, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	grant := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "iam-ops-admin"},
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "cluster-admin"},
		Subjects: []rbacv1.Subject{{APIGroup: "rbac.authorization.k8s.io", Kind: "User", Name: "iam:u-ops"}}}
	if _, err := admin.RbacV1().ClusterRoleBindings().Create(ctx, grant, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	rollouts := countRollouts(ctx, t, c, "hanzo-testnet")

	term := startTerminal(t, bin, []string{"--kubeconfig", c.KubeconfigPath(), "--releases", "off", "--iam-cluster", "test"},
		userEnv(t, iss, "restart:\n  maxParallel: 2\n"))
	term.await("the fleet", 90*time.Second, "5/5 shown", "svc-003", "iam")
	term.await("every rollout settled", 90*time.Second, "ops@hanzo.ai")

	term.keys("/iam\r")
	term.await("the filter", 10*time.Second, "1/5 shown")
	term.keys("y")
	term.await("y: the App's resource", 30*time.Second, "apiVersion: hanzo.ai/v1", "kind: App", "name: iam", "tag: v1.2.3")
	term.keys("q")
	term.keys("l")
	term.await("l: the pod's log", 30*time.Second, "iam listening on :8000", "following")
	write(t, current, os.O_APPEND, criLine("rotated the signing key"))
	term.await("l: a line written later", 30*time.Second, "rotated the signing key")
	term.keys("q")
	term.keys("\r")
	term.await("the detail's Events", 30*time.Second, "KeyRotationDue", "signing key older than 90 days")
	term.keys("q")

	term.keys("/")
	term.keys(string([]byte{0x15})) // ctrl+u: clear the line
	term.keys("ns:hanzo-testnet\r")
	term.await("the set", 10*time.Second, "4/5 shown")
	term.keys("*R")
	term.await("the set restart asks", 30*time.Second, "type 4")
	term.keys("4\r")
	term.await("the set restart ends", 3*time.Minute, "4 restarted, 0 failed")

	time.Sleep(time.Second) // the counter's watch may trail the board's
	restarted, most := rollouts()
	if restarted != 4 || most > 2 || most < 2 {
		t.Errorf("%d restarted, at most %d rollouts under way at once; want 4, 2 at once (restart.maxParallel)", restarted, most)
	}
	t.Logf("at most %d rollouts under way at once", most)
}

// userEnv is a user's environment: an own home with config (cfg), logged in
// as u-ops through HANZO_TOKEN at iss, whose CA the system trusts.
func userEnv(t *testing.T, iss *testcluster.Issuer, cfg string) []string {
	t.Helper()
	home := t.TempDir()
	conf := filepath.Join(home, ".config")
	if err := os.MkdirAll(filepath.Join(conf, "driftboard"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(conf, "driftboard", "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	ca := filepath.Join(home, "issuer-ca.pem")
	if err := os.WriteFile(ca, []byte(iss.CAPEM()), 0o600); err != nil {
		t.Fatal(err)
	}
	token := iss.Token(map[string]any{"sub": "u-ops", "aud": []string{"hanzo-cli"}, "email": "ops@hanzo.ai",
		"preferred_username": "ops@hanzo.ai", "orgs": []map[string]string{{"org": "admin", "role": "admin"}}}, time.Now().Add(time.Hour))
	return []string{"HOME=" + home, "XDG_CONFIG_HOME=" + conf, "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"HANZO_HOME=" + filepath.Join(home, ".hanzo"), "HANZO_IAM_ISSUER=" + iss.URL(), "HANZO_TOKEN=" + token, "SSL_CERT_FILE=" + ca}
}

// countRollouts watches the namespace's Deployments on the API server and
// reports how many were restarted and the most whose rollouts were under
// way at once, in the API server's order of events.
func countRollouts(ctx context.Context, t *testing.T, c *testcluster.Cluster, ns string) func() (restarted, most int) {
	t.Helper()
	w, err := c.AdminClient().AppsV1().Deployments(ns).Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	var mu sync.Mutex
	underway, seen, top := map[string]bool{}, map[string]bool{}, 0
	go func() {
		for ev := range w.ResultChan() {
			d, ok := ev.Object.(*appsv1.Deployment)
			if !ok || d.Spec.Template.Annotations[model.RestartedAtAnnotation] == "" {
				continue
			}
			mu.Lock()
			seen[d.Name] = true
			underway[d.Name] = !(d.Status.ObservedGeneration >= d.Generation && d.Status.UpdatedReplicas >= *d.Spec.Replicas &&
				d.Status.Replicas <= d.Status.UpdatedReplicas && d.Status.AvailableReplicas >= d.Status.UpdatedReplicas)
			n := 0
			for _, u := range underway {
				if u {
					n++
				}
			}
			top = max(top, n)
			mu.Unlock()
		}
	}()
	return func() (int, int) {
		mu.Lock()
		defer mu.Unlock()
		return len(seen), top
	}
}
