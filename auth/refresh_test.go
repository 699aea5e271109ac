package auth_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/auth"
	"github.com/hanzoai/driftboard/auth/internal/testidp"
)

const childEnv = "DRIFTBOARD_AUTH_TEST_CHILD"

// writeExpiry makes the stored access token look due at exp (the token
// itself is untouched), as if time had passed.
func writeExpiry(t *testing.T, dir string, exp time.Time) {
	t.Helper()
	st := auth.NewStore(dir)
	c, err := st.Load()
	if err != nil {
		t.Fatal(err)
	}
	c.Expiry = exp
	if err := st.Save(c); err != nil {
		t.Fatal(err)
	}
}

func queryParam(rawURL, key string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	return u.Query().Get(key)
}

func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func TestRefreshRotatesAndReplayExpiresSession(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	dir := t.TempDir()
	s := newSession(idp, dir, nil)
	browserLogin(t, idp, s, "alice", "alice-pw")
	old := readCreds(t, dir)

	ctx := context.Background()
	if tok, err := s.Token(ctx); err != nil || tok != old.AccessToken {
		t.Fatalf("fresh token: refreshed or failed: %v", err)
	}
	writeExpiry(t, dir, time.Now().Add(time.Minute)) // inside the 2 min margin
	tok, err := s.Token(ctx)
	if err != nil {
		t.Fatalf("refresh: %v", err)
	}
	cur := readCreds(t, dir)
	if tok == old.AccessToken || tok != cur.AccessToken || cur.RefreshToken == old.RefreshToken || cur.RefreshToken == "" {
		t.Errorf("refresh did not rotate: new access %v, new refresh %v", tok != old.AccessToken, cur.RefreshToken != old.RefreshToken)
	}
	if _, err := s.Token(ctx); err != nil || idp.Refreshes() != 1 {
		t.Errorf("second call refreshed again or failed: refreshes=%d err=%v", idp.Refreshes(), err)
	}

	// A stale copy holding the spent refresh token: the IdP refuses it.
	stale := *old
	stale.Expiry = time.Now().Add(-time.Minute)
	if err := auth.NewStore(dir).Save(&stale); err != nil {
		t.Fatal(err)
	}
	_, err = s.Token(ctx)
	if !errors.Is(err, auth.ErrSessionExpired) || !strings.Contains(err.Error(), "log in again") {
		t.Fatalf("replayed refresh token: err = %v, want ErrSessionExpired", err)
	}
	assertNoSecrets(t, err.Error(), old.AccessToken, old.RefreshToken, cur.AccessToken, cur.RefreshToken)
}

func TestRefreshWithIdPDownIsUnavailable(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	dir := t.TempDir()
	browserLogin(t, idp, newSession(idp, dir, nil), "alice", "alice-pw")
	writeExpiry(t, dir, time.Now().Add(time.Minute))
	c := readCreds(t, dir)
	idp.TLS.Close()

	// Due for an early refresh but still valid: the current token is used.
	tok, err := newSession(idp, dir, nil).Token(context.Background())
	if err != nil || tok != c.AccessToken {
		t.Fatalf("early refresh with IdP down: err = %v, want the current token", err)
	}
	writeExpiry(t, dir, time.Now().Add(-time.Second))
	_, err = newSession(idp, dir, nil).Token(context.Background())
	if !errors.Is(err, auth.ErrIdPUnavailable) {
		t.Fatalf("IdP down: err = %v, want ErrIdPUnavailable", err)
	}
	assertNoSecrets(t, err.Error(), c.AccessToken, c.RefreshToken)
	if after := readCreds(t, dir); after.RefreshToken != c.RefreshToken {
		t.Error("a failed refresh changed the stored login")
	}
}

// TestTwoProcessesRefreshOnce: two processes find the token due at the same
// moment; the file lock lets one refresh and the other re-reads its result.
func TestTwoProcessesRefreshOnce(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	dir, work := t.TempDir(), t.TempDir()
	browserLogin(t, idp, newSession(idp, dir, nil), "alice", "alice-pw")
	writeExpiry(t, dir, time.Now().Add(30*time.Second))
	old := readCreds(t, dir)
	ca := filepath.Join(work, "ca.pem")
	if err := os.WriteFile(ca, idp.CAPEM(), 0o600); err != nil {
		t.Fatal(err)
	}
	start := filepath.Join(work, "start")

	outs := make([]string, 2)
	var wg sync.WaitGroup
	for i := range outs {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"=1", "HANZO_HOME="+dir, "CHILD_ISSUER="+idp.Issuer,
			"CHILD_CA="+ca, "CHILD_START="+start, fmt.Sprintf("CHILD_READY=%s/ready%d", work, i))
		wg.Go(func() {
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("child %d: %v: %s", i, err, out)
			}
			outs[i] = strings.TrimSpace(string(out))
		})
	}
	waitFor(t, filepath.Join(work, "ready0"), filepath.Join(work, "ready1"))
	if err := os.WriteFile(start, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	wg.Wait()

	cur := readCreds(t, dir)
	if got := idp.Refreshes(); got != 1 {
		t.Errorf("refresh requests at the IdP = %d, want exactly 1", got)
	}
	if cur.AccessToken == old.AccessToken || cur.RefreshToken == old.RefreshToken {
		t.Error("the store does not hold a rotated login")
	}
	for i, out := range outs {
		if out != hash(cur.AccessToken) {
			t.Errorf("child %d ended with token %q, want the new one %q", i, out, hash(cur.AccessToken))
		}
	}
}

// refreshChild is the other process of TestTwoProcessesRefreshOnce: it waits
// for the start signal, asks for a token, prints its hash.
func refreshChild() int {
	hc, err := clientTrusting(os.Getenv("CHILD_CA"))
	if err != nil {
		fmt.Println(err)
		return 1
	}
	s := auth.NewSession(auth.Options{
		Settings:   auth.Settings{Issuer: os.Getenv("CHILD_ISSUER"), ClientID: "hanzo-cli"},
		Store:      auth.NewStore(os.Getenv("HANZO_HOME")),
		HTTPClient: hc,
	})
	if err := os.WriteFile(os.Getenv("CHILD_READY"), nil, 0o600); err != nil {
		fmt.Println(err)
		return 1
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		if _, err := os.Stat(os.Getenv("CHILD_START")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			fmt.Println("no start signal")
			return 1
		}
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	tok, err := s.Token(ctx)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	fmt.Println(hash(tok))
	return 0
}

func waitFor(t *testing.T, files ...string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for _, f := range files {
		for {
			if _, err := os.Stat(f); err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("child process never got ready (%s)", f)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}

func assertNoSecrets(t *testing.T, text string, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		if s != "" && strings.Contains(text, s) {
			t.Errorf("text leaks a secret: %q", text)
		}
	}
}
