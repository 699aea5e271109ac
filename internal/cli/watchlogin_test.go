package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/auth"
)

const storeChildEnv = "DRIFTBOARD_CLI_TEST_STORE_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(storeChildEnv) != "" {
		os.Exit(storeChild())
	}
	if args := os.Getenv(mainChildEnv); args != "" {
		os.Exit(Main(context.Background(), strings.Fields(args), os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// storeChild is "another terminal": it logs in (CHILD_CREDS, as the hanzo
// CLI stores a login) or out (no CHILD_CREDS) in HANZO_HOME, and exits.
func storeChild() int {
	st := auth.NewStore(os.Getenv("HANZO_HOME"))
	var err error
	if raw := os.Getenv("CHILD_CREDS"); raw != "" {
		c := new(auth.Credentials)
		if err = json.Unmarshal([]byte(raw), c); err == nil {
			err = st.Save(c)
		}
	} else {
		err = st.Remove()
	}
	if err != nil {
		fmt.Println(err)
		return 1
	}
	return 0
}

func otherTerminal(t *testing.T, home, creds string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), storeChildEnv+"=1", "HANZO_HOME="+home, "CHILD_CREDS="+creds)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the other terminal: %v: %s", err, out)
	}
}

// TestBoardNoticesALoginInAnotherTerminal: while the board runs, a login as
// another user made by another process changes the board's identity (what
// its header shows) within seconds, and so does a logout; nothing here waits
// for the board's periodic re-read (minutes away).
func TestBoardNoticesALoginInAnotherTerminal(t *testing.T) {
	iss := startIssuer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	e := newEnv(t)
	e.vars["HANZO_IAM_ISSUER"] = iss.URL()
	home := e.vars["HANZO_HOME"]
	creds := func(sub, email string) string {
		return fmt.Sprintf(`{"access_token":%q,"token_type":"Bearer","expiry":%d,"subject":%q,"owner":"acme"}`,
			iss.token(t, sub, email, orgRole{"acme", "admin"}), time.Now().Add(time.Hour).Unix(), sub)
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "credentials.json"), []byte(creds("u-ann", "ann@acme.dev")), 0o600); err != nil {
		t.Fatal(err)
	}
	a := newApp(Streams{Getenv: func(k string) string { return e.vars[k] }})
	_, id, _, err := a.iamActor(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if p := id.Current().Principal; p == nil || p.Subject != "u-ann" {
		t.Fatalf("the board starts as %+v, want u-ann", id.Current())
	}
	go id.run(ctx)
	time.Sleep(100 * time.Millisecond) // the board is up and idle

	waitFor := func(what string, ok func() bool) time.Duration {
		t.Helper()
		start := time.Now()
		for !ok() {
			if time.Since(start) > 5*time.Second {
				t.Fatalf("the board did not notice %s within 5 s: %+v", what, id.Current())
			}
			time.Sleep(20 * time.Millisecond)
		}
		return time.Since(start)
	}
	otherTerminal(t, home, creds("u-ben", "ben@acme.dev"))
	took := waitFor("a login as u-ben", func() bool { p := id.Current().Principal; return p != nil && p.Subject == "u-ben" })
	t.Logf("login noticed %v after the other process finished", took)

	otherTerminal(t, home, "")
	took = waitFor("a logout", func() bool { return errors.Is(id.Current().Err, auth.ErrNotLoggedIn) })
	t.Logf("logout noticed %v after the other process finished", took)
}
