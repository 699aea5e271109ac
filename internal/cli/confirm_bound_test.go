package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// The board's confirm acts on what its dialog showed, even across a login
// change that rebuilds the fleet.
func TestBoardConfirmIsBoundToTheDialog(t *testing.T) {
	iss := startTLSIssuer(t)
	c := testcluster.Start(t, testcluster.Options{AuthenticationConfig: iss.AuthenticationConfig("hanzo-cli", "iam:")})
	c.CreateNamespaces("hanzo-testnet")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := c.SeedApp(ctx, "hanzo-testnet", "iam", "iam", "ghcr.io/hanzoai/iam", "v1.2.3", 1); err != nil {
		t.Fatal(err)
	}
	grantClusterAdmin(ctx, t, c, "iam:u-alice", "iam:u-bob")
	e := newEnv(t)
	e.trustIssuerCA(t, iss)
	e.vars["HANZO_IAM_ISSUER"] = iss.URL()
	home := e.vars["HANZO_HOME"]
	must(t, os.MkdirAll(home, 0o700))
	login := func(sub string) {
		tok := iss.token(t, sub, sub+"@hanzo.ai", orgRole{"admin", "owner"})
		creds := fmt.Sprintf(`{"access_token":%q,"token_type":"Bearer","expiry":%d}`, tok, time.Now().Add(time.Hour).Unix())
		must(t, os.WriteFile(filepath.Join(home, "credentials.json"), []byte(creds), 0o600))
	}
	login("u-alice")
	a := newApp(Streams{Getenv: func(k string) string { return e.vars[k] }, Out: io.Discard, Err: io.Discard})
	a.opts.kubeconfig, a.opts.iamClusters, a.opts.releases = c.KubeconfigPath(), []string{"test"}, "off"
	eff, err := a.effective()
	must(t, err)
	_, id, _, err := a.iamActor(ctx)
	must(t, err)
	s, err := a.session()
	must(t, err)
	fl, err := a.openLoginFleets(ctx, eff, id, s)
	must(t, err)
	key := model.Key{Cluster: "test", Namespace: "hanzo-testnet", Name: "iam"}
	// relogin changes the stored login and waits for the fleet opened as it.
	relogin := func(who string) {
		t.Helper()
		login(who)
		id.refresh(ctx)
		for deadline := time.Now().Add(30 * time.Second); fl.openedWith() != "sub:"+who; time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("never reopened as %s", who)
			}
		}
		must(t, fl.current().WaitSynced(ctx))
	}
	uc := composeBoard(fl, eff, false, forgeSource{why: "a test"}).Fleet // what the board is given
	// check is the dialog's check, allowed as who.
	check := func(who string) restart.Checked {
		t.Helper()
		var c restart.Checked
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			row := uc.Snapshot().Find(key)
			if row == nil {
				continue
			}
			if c, err = uc.Check(ctx, restart.CheckInput{Row: row}); err == nil && c.Decision.Actor != nil && c.Decision.Actor.Username == "iam:"+who {
				return c
			}
		}
		t.Fatalf("never allowed as iam:%s; last %+v", who, c.Decision)
		return c
	}
	confirm := func(c restart.Checked) error {
		_, err := uc.Restart(ctx, restart.Input{Checked: c, Confirm: restart.Confirmation{Answer: "y"}})
		return err
	}

	// The dialog names iam:u-alice; the login changes to bob before the confirm.
	must(t, fl.current().WaitSynced(ctx))
	dialog := check("u-alice")
	relogin("u-bob")
	err = confirm(dialog)
	if err == nil || !strings.Contains(err.Error(), "confirmed for iam:u-alice, but it would now be made as iam:u-bob") {
		t.Errorf("confirm of alice's dialog after the login changed to bob: %v (restartedBy %q)", err, deploymentBy(t, c, "hanzo-testnet", "iam"))
	}

	// Back to alice, the workload is replaced: a new UID is refused.
	relogin("u-alice")
	dialog = check("u-alice")
	dep, err := c.AdminClient().AppsV1().Deployments("hanzo-testnet").Get(ctx, "iam", metav1.GetOptions{})
	must(t, err)
	must(t, c.AdminClient().AppsV1().Deployments("hanzo-testnet").Delete(ctx, "iam", metav1.DeleteOptions{}))
	dep.ObjectMeta = metav1.ObjectMeta{Name: dep.Name, Namespace: dep.Namespace, Labels: dep.Labels}
	_, err = c.AdminClient().AppsV1().Deployments("hanzo-testnet").Create(ctx, dep, metav1.CreateOptions{})
	must(t, err)
	relogin("u-bob")
	relogin("u-alice")
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if now := check("u-alice"); now.Decision.Bound.UID != dialog.Decision.Bound.UID {
			break // the new fleet sees the new workload
		}
		if time.Now().After(deadline) {
			t.Fatal("the reopened fleet never saw the re-created Deployment")
		}
	}
	err = confirm(dialog)
	if err == nil || !strings.Contains(err.Error(), "replaced") {
		t.Errorf("confirm after the workload was replaced: %v", err)
	}
	if by := deploymentBy(t, c, "hanzo-testnet", "iam"); by != "" {
		t.Errorf("a refused confirm restarted the workload (restartedBy %q)", by)
	}

	// The dialog opened now is allowed, on the new workload, as alice.
	if err := confirm(check("u-alice")); err != nil {
		t.Fatalf("a fresh dialog's confirm: %v", err)
	}
	if by := deploymentBy(t, c, "hanzo-testnet", "iam"); by != "iam:u-alice" {
		t.Errorf("restartedBy %q, want iam:u-alice", by)
	}
}
