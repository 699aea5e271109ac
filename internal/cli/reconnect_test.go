package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/auth"
	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// TestBoardReconnectsWhenTheLoginChanges: the board opened without a login
// reads as the kubeconfig user and refuses restarts; a login (here stored
// as the hanzo CLI would, then re-read as the board does after 'L') reopens
// the trusted cluster as the new IAM user, whose restart the audit log
// shows; a logout reopens it as the kubeconfig user again.
func TestBoardReconnectsWhenTheLoginChanges(t *testing.T) {
	iss := startTLSIssuer(t)
	c := testcluster.Start(t, testcluster.Options{AuthenticationConfig: iss.AuthenticationConfig("hanzo-cli", "iam:")})
	c.CreateNamespaces("hanzo-testnet")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := c.SeedApp(ctx, "hanzo-testnet", "iam", "iam", "ghcr.io/hanzoai/iam", "v1.2.3", 1); err != nil {
		t.Fatal(err)
	}
	grantClusterAdmin(ctx, t, c, "iam:u-new")
	e := newEnv(t)
	e.trustIssuerCA(t, iss)
	e.vars["HANZO_IAM_ISSUER"] = iss.URL()
	a := newApp(Streams{Getenv: func(k string) string { return e.vars[k] }, Out: io.Discard, Err: io.Discard})
	a.opts.kubeconfig, a.opts.iamClusters, a.opts.releases = c.KubeconfigPath(), []string{"test"}, "off"
	eff, err := a.effective()
	if err != nil {
		t.Fatal(err)
	}
	_, id, _, err := a.iamActor(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s, err := a.session()
	if err != nil {
		t.Fatal(err)
	}
	fl, err := a.openLoginFleets(ctx, eff, id, s)
	if err != nil {
		t.Fatal(err)
	}
	b := composeBoard(fl, eff, false, forgeSource{why: "a test"}).Fleet // what the board acts through
	key := model.Key{Cluster: "test", Namespace: "hanzo-testnet", Name: "iam"}
	decide := func(want bool, says string) model.Decision {
		t.Helper()
		var d model.Decision
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
			wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
			err := fl.current().WaitSynced(wctx)
			wcancel()
			if err == nil {
				if row := b.Snapshot().Find(key); row != nil {
					chk, _ := b.Check(ctx, restart.CheckInput{Row: row}) // a refusal is in its Decision
					if d = chk.Decision; d.Allowed == want && strings.Contains(d.Reason, says) {
						return d
					}
				}
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Fatalf("never got allowed=%v saying %q; last %+v; clusters %+v (opened with %q)", want, says, d, fl.current().Snapshot().Clusters, fl.openedWith())
		return d
	}
	decide(false, "not logged in")

	home := e.vars["HANZO_HOME"]
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	tok := iss.token(t, "u-new", "new@hanzo.ai", orgRole{"admin", "owner"})
	creds := fmt.Sprintf(`{"access_token":%q,"token_type":"Bearer","expiry":%d}`, tok, time.Now().Add(time.Hour).Unix())
	if err := os.WriteFile(filepath.Join(home, "credentials.json"), []byte(creds), 0o600); err != nil {
		t.Fatal(err)
	}
	id.refresh(ctx) // what the board does after a login inside it ('L')
	d := decide(true, "iam:u-new")
	if n := fl.current().Snapshot().Clusters[0].Notices; len(n) == 0 || n[0] != "read as IAM user iam:u-new (groups system:authenticated)" {
		t.Errorf("after login the cluster's notices are %q", n)
	}
	if d.Actor == nil || d.Actor.Username != "iam:u-new" {
		t.Errorf("actor %+v, want iam:u-new", d.Actor)
	}
	since := time.Now()
	chk, err := b.Check(ctx, restart.CheckInput{Row: b.Snapshot().Find(key)})
	if err == nil {
		_, err = b.Restart(ctx, restart.Input{Checked: chk, Confirm: restart.Confirmation{Answer: "y"}})
	}
	if err != nil {
		t.Fatalf("restart as the new login: %v", err)
	}
	if by := deploymentBy(t, c, "hanzo-testnet", "iam"); by != "iam:u-new" {
		t.Errorf("restartedBy = %q, want iam:u-new", by)
	}
	sawPatch := false
	events, _ := c.AuditEvents()
	for _, ev := range events {
		if ev.Verb == "patch" && !ev.RequestReceivedTimestamp.Before(since) && ev.ObjectRef != nil && ev.ObjectRef.Name == "iam" {
			sawPatch = true
			if ev.User.Username != "iam:u-new" {
				t.Errorf("the audit log's patch was made by %q, want iam:u-new", ev.User.Username)
			}
		}
	}
	if !sawPatch {
		t.Error("no patch in the audit log")
	}

	if err := os.Remove(filepath.Join(home, "credentials.json")); err != nil {
		t.Fatal(err)
	}
	id.refresh(ctx) // a logout
	decide(false, "not logged in")
	for fl.openedWith() != "" || strings.Contains(strings.Join(fl.current().Snapshot().Clusters[0].Notices, "; "), "IAM user") {
		if ctx.Err() != nil {
			t.Fatalf("after logout the cluster is never reopened as the kubeconfig user: %q", fl.current().Snapshot().Clusters[0].Notices)
		}
		time.Sleep(50 * time.Millisecond)
	}

	// Logged in again, then the stored login is truncated: the board goes
	// on reading as the kubeconfig user, says why, and refuses restarts.
	if err := os.WriteFile(filepath.Join(home, "credentials.json"), []byte(creds), 0o600); err != nil {
		t.Fatal(err)
	}
	id.refresh(ctx)
	decide(true, "iam:u-new")
	if err := os.WriteFile(filepath.Join(home, "credentials.json"), []byte(creds[:20]), 0o600); err != nil {
		t.Fatal(err)
	}
	id.refresh(ctx)
	if err := id.Current().Err; !errors.Is(err, auth.ErrStoreCorrupt) || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("identity after a truncated store: %v, want ErrStoreCorrupt", err)
	}
	for deadline := time.Now().Add(30 * time.Second); fl.openedWith() != ""; {
		if time.Now().After(deadline) {
			t.Fatal("a truncated store did not reopen the clusters as the kubeconfig user")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := fl.current().WaitSynced(ctx); err != nil {
		t.Errorf("reads stopped with a truncated store: %v", err)
	}
	decide(false, "not logged in")
}
