package cli

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"k8s.io/client-go/rest"

	"github.com/hanzoai/driftboard/internal/testing/karmadatest"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// A config's Karmada source in a mixed fleet: members read through the proxy
// (each once, named by its context where it has one, even when that context
// is also listed), other contexts direct, actions of a member without a
// context refused with the reason.
func TestKarmadaSourceFromConfig(t *testing.T) {
	k := karmadatest.Start(t)
	m1 := testcluster.Start(t, testcluster.Options{})
	m2 := testcluster.Start(t, testcluster.Options{})
	m3 := testcluster.Start(t, testcluster.Options{}) // not a member: read direct beside them
	k.Join("member1", m1)
	k.Join("member2", m2)
	k.Cache("member1", "member2")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, m := range []*testcluster.Cluster{m1, m2, m3} {
		if err := m.SeedApp(ctx, "default", "web", "service", "ghcr.io/hanzoai/web", "v1", 1); err != nil {
			t.Fatal(err)
		}
	}
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := karmadatest.WriteKubeconfig(kubeconfig, map[string]*rest.Config{
		"karmada": k.Host().AdminConfig(), "prod-1": m1.AdminConfig(), "edge": m3.AdminConfig()}); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t)
	dir := filepath.Join(e.vars["XDG_CONFIG_HOME"], "driftboard")
	cfg := "contexts: [edge, prod-1]\nkarmada:\n  context: karmada\n  members:\n    member1: prod-1\n    member2: \"\"\n"
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	base := []string{"--kubeconfig", kubeconfig, "--releases=off"}
	run := func(args ...string) result { return e.run(t, append(args, base...)...) }

	r := run("list", "-o", "json")
	d := parseList(t, r.out)
	clusters := map[string]int{}
	for _, a := range d.Apps {
		clusters[*a.Cluster]++
	}
	if len(d.Apps) != 3 || clusters["prod-1"] != 1 || clusters["member2"] != 1 || clusters["edge"] != 1 {
		t.Fatalf("apps by cluster = %v, want web once in prod-1 (member1's context, also listed in contexts), member2 and edge (direct):\n%s\n%s",
			clusters, r.out, r.err)
	}
	r = run("list", "-o", "json", "--context", "member2")
	if d := parseList(t, r.out); len(d.Apps) != 1 || *d.Apps[0].Cluster != "member2" {
		t.Errorf("--context member2 lists (exit %d):\n%s\n%s", r.code, r.out, r.err)
	}
	// Nothing goes to member2 but through the proxy: its logs are refused.
	run("logs", "web", "--context", "member2").expect(t, ExitError, "no kubeconfig context of its own")
}

// A restart of a row read through Karmada is made on the member as the IAM
// user, with the member's context declared as trusting the issuer.
func TestKarmadaRestartAsIAMUser(t *testing.T) {
	iss := startTLSIssuer(t)
	k := karmadatest.Start(t)
	m1 := testcluster.Start(t, testcluster.Options{AuthenticationConfig: iss.AuthenticationConfig("hanzo-cli", "iam:")})
	k.Join("member1", m1)
	k.Cache("member1")
	m1.CreateNamespaces("hanzo")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := m1.SeedApp(ctx, "hanzo", "web", "service", "ghcr.io/hanzoai/web", "v1", 1); err != nil {
		t.Fatal(err)
	}
	grantClusterAdmin(ctx, t, m1, "iam:u-ops")
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := karmadatest.WriteKubeconfig(kubeconfig, map[string]*rest.Config{
		"karmada": k.Host().AdminConfig(), "prod-1": m1.AdminConfig()}); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t)
	dir := filepath.Join(e.vars["XDG_CONFIG_HOME"], "driftboard")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := "karmada:\n  context: karmada\n  members:\n    member1: prod-1\n"
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	e.trustIssuerCA(t, iss)
	e.loginAs(iss, iss.token(t, "u-ops", "ops@hanzo.ai", orgRole{"admin", "admin"}))
	r := e.run(t, "restart", "hanzo/web", "--yes", "--kubeconfig", kubeconfig, "--releases=off", "--iam-cluster", "prod-1")
	// Its rows are read as Karmada's identity: the IAM identity is its actions'.
	r.expect(t, ExitOK, "prod-1: actions and pods, direct: read as IAM user iam:u-ops")
	if by := deploymentBy(t, m1, "hanzo", "web"); by != "iam:u-ops" {
		t.Errorf("restartedBy = %q, want the IAM user", by)
	}
}
