package auth_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/auth"
	"github.com/hanzoai/driftboard/auth/internal/testidp"
)

// storeProcess is a second process on the store (the test binary re-run as
// storeChild) that stops at pauseAt until continued or killed.
type storeProcess struct {
	cmd         *exec.Cmd
	ready, cont string
	out         []byte
	done        chan error
}

// startStoreProcess runs mode ("refresh": ask for a token; "save": write
// the login stored in from as a new login) on the store in dir.
func startStoreProcess(t *testing.T, idp *testidp.Server, dir, mode, from, pauseAt string) *storeProcess {
	t.Helper()
	work := t.TempDir()
	ca := filepath.Join(work, "ca.pem")
	if err := os.WriteFile(ca, idp.CAPEM(), 0o600); err != nil {
		t.Fatal(err)
	}
	p := &storeProcess{ready: filepath.Join(work, "ready"), cont: filepath.Join(work, "continue"), done: make(chan error, 1)}
	p.cmd = exec.Command(os.Args[0], "-test.run=^$")
	p.cmd.Env = append(os.Environ(), childEnv+"=store", "HANZO_HOME="+dir, "CHILD_ISSUER="+idp.Issuer, "CHILD_CA="+ca,
		"CHILD_MODE="+mode, "CHILD_FROM="+from, "CHILD_PAUSE_AT="+pauseAt, "CHILD_READY="+p.ready, "CHILD_CONTINUE="+p.cont)
	outFile := filepath.Join(work, "out")
	f, err := os.Create(outFile)
	if err != nil {
		t.Fatal(err)
	}
	p.cmd.Stdout, p.cmd.Stderr = f, f
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		err := p.cmd.Wait()
		f.Close()
		p.out, _ = os.ReadFile(outFile)
		p.done <- err
	}()
	t.Cleanup(func() { _ = p.cmd.Process.Kill() })
	waitFor(t, p.ready)
	return p
}

// kill ends the process with SIGKILL where it stopped.
func (p *storeProcess) kill(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := <-p.done; err == nil {
		t.Fatal("the process was not killed")
	}
}

// resume lets it go on and waits for it to finish.
func (p *storeProcess) resume(t *testing.T) {
	t.Helper()
	if err := os.WriteFile(p.cont, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := <-p.done; err != nil {
		t.Fatalf("store process: %v: %s", err, p.out)
	}
}

// storeChild is the second process: it stops at CHILD_PAUSE_AT (saying so
// through CHILD_READY) until CHILD_CONTINUE appears.
func storeChild() int {
	auth.SetTestHook(func(point string) {
		if point != os.Getenv("CHILD_PAUSE_AT") {
			return
		}
		if err := os.WriteFile(os.Getenv("CHILD_READY"), nil, 0o600); err != nil {
			os.Exit(3)
		}
		for {
			if _, err := os.Stat(os.Getenv("CHILD_CONTINUE")); err == nil {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	})
	st := auth.NewStore(os.Getenv("HANZO_HOME"))
	switch os.Getenv("CHILD_MODE") {
	case "save":
		c, err := auth.NewStore(os.Getenv("CHILD_FROM")).Load()
		if err == nil {
			err = st.Save(c)
		}
		if err != nil {
			fmt.Println(err)
			return 1
		}
	case "remove":
		if err := st.Remove(); err != nil {
			fmt.Println(err)
			return 1
		}
	case "refresh":
		hc, err := clientTrusting(os.Getenv("CHILD_CA"))
		if err != nil {
			fmt.Println(err)
			return 1
		}
		s := auth.NewSession(auth.Options{Settings: auth.Settings{Issuer: os.Getenv("CHILD_ISSUER"), ClientID: "hanzo-cli"},
			Store: st, HTTPClient: hc})
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if _, err := s.Token(ctx); err != nil {
			fmt.Println(err)
			return 1
		}
	}
	return 0
}

// goCLIView is the login the Go hanzo CLI sees in identities.json: the
// active key and its access token.
func goCLIView(t *testing.T, dir string) (active, accessToken string) {
	t.Helper()
	var ids struct {
		Active     string                    `json:"active"`
		Identities map[string]map[string]any `json:"identities"`
	}
	readJSON(t, filepath.Join(dir, "identities.json"), &ids)
	at, _ := ids.Identities[ids.Active]["access_token"].(string)
	return ids.Active, at
}

// TestCrashBetweenTheTwoFilesLeavesOneLogin: a login as bob killed after
// credentials.json is written and before identities.json is: a fresh read
// sees bob in both files (the journal finishes the write), never bob in one
// and alice in the other.
func TestCrashBetweenTheTwoFilesLeavesOneLogin(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	dir, bobDir := t.TempDir(), t.TempDir()
	browserLogin(t, idp, newSession(idp, dir, nil), "alice", "alice-pw")
	browserLogin(t, idp, newSession(idp, bobDir, nil), "bob", "bob-pw")
	bob := readCreds(t, bobDir)

	startStoreProcess(t, idp, dir, "save", bobDir, "between-writes").kill(t)

	c := readCreds(t, dir) // a fresh read
	if c.Subject != "u-bob" || c.AccessToken != bob.AccessToken {
		t.Fatalf("after the crash the store reads %v, want bob's new login", c)
	}
	active, at := goCLIView(t, dir)
	if active != "acme/bob" || at != bob.AccessToken {
		t.Errorf("after the crash identities.json has %q active (its token bob's: %v): the two files disagree", active, at == bob.AccessToken)
	}
	if _, err := os.Stat(filepath.Join(dir, "credentials.pending")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the interrupted write's journal is still there (%v)", err)
	}
}

// TestCrashDuringLogoutStaysLoggedOut: a logout killed after removing
// credentials.json and before rewriting identities.json does not leave the
// login to be read back from identities.json.
func TestCrashDuringLogoutStaysLoggedOut(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	dir := t.TempDir()
	browserLogin(t, idp, newSession(idp, dir, nil), "alice", "alice-pw")

	startStoreProcess(t, idp, dir, "remove", "", "between-writes").kill(t)

	if c, err := auth.NewStore(dir).Load(); !errors.Is(err, auth.ErrNotLoggedIn) {
		t.Fatalf("after a logout killed midway the store reads %v (%v), want logged out", c, err)
	}
	if active, _ := goCLIView(t, dir); active != "" {
		t.Errorf("identities.json still has %q active", active)
	}
}

// TestBoardKilledMidRefreshLosesNoRotatedToken: a process SIGKILLed during
// a refresh, before the exchange or between writing the two files, leaves a
// login whose next refresh works; the IdP sees no replay.
func TestBoardKilledMidRefreshLosesNoRotatedToken(t *testing.T) {
	t.Parallel()
	for _, at := range []string{"refresh-exchange", "between-writes"} {
		t.Run(at, func(t *testing.T) {
			t.Parallel()
			idp := testidp.Start(t, testidp.Options{})
			dir := t.TempDir()
			browserLogin(t, idp, newSession(idp, dir, nil), "alice", "alice-pw")
			writeExpiry(t, dir, time.Now().Add(time.Minute))

			startStoreProcess(t, idp, dir, "refresh", "", at).kill(t)

			c := readCreds(t, dir)
			if active, tok := goCLIView(t, dir); active != "acme/alice" || tok != c.AccessToken {
				t.Errorf("after the kill identities.json has %q with a different token than credentials.json", active)
			}
			writeExpiry(t, dir, time.Now().Add(time.Minute))
			if _, err := newSession(idp, dir, nil).Token(context.Background()); err != nil {
				t.Fatalf("the refresh after the kill: %v", err)
			}
			if n := idp.Replays(); n != 0 {
				t.Errorf("the IdP saw %d replayed refresh token(s): a rotated token was lost", n)
			}
		})
	}
}

// TestLogoutInOneProcessDuringARefreshInAnother: a logout while another
// process is mid-refresh waits for it, and the login stays logged out.
func TestLogoutInOneProcessDuringARefreshInAnother(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	dir := t.TempDir()
	browserLogin(t, idp, newSession(idp, dir, nil), "alice", "alice-pw")
	writeExpiry(t, dir, time.Now().Add(time.Minute))

	refresher := startStoreProcess(t, idp, dir, "refresh", "", "refresh-exchange")
	done := make(chan error, 1)
	go func() { _, err := newSession(idp, dir, nil).Logout(context.Background()); done <- err }()
	select {
	case err := <-done:
		t.Fatalf("logout did not wait for the refresh in the other process (err %v)", err)
	case <-time.After(300 * time.Millisecond):
	}
	refresher.resume(t)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if idp.Refreshes() != 1 {
		t.Fatalf("the other process made %d refreshes, want 1", idp.Refreshes())
	}
	if _, err := auth.NewStore(dir).Load(); !errors.Is(err, auth.ErrNotLoggedIn) {
		t.Errorf("after logout during a refresh: %v, want logged out", err)
	}
	if active, _ := goCLIView(t, dir); active != "" {
		t.Errorf("identities.json still has %q active after logout", active)
	}
}
