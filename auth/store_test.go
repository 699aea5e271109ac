package auth_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/auth"
	"github.com/hanzoai/driftboard/auth/internal/testidp"
)

// A credentials.json as the hanzo CLI writes it, with fields this package
// does not know.
const hanzoCLICredentials = `{
  "access_token": "at-from-hanzo-cli",
  "refresh_token": "rt-from-hanzo-cli",
  "token_type": "Bearer",
  "expiry": 1893456000,
  "subject": "u-carol",
  "owner": "hanzo",
  "platform_token": "pt-from-hanzo-cli",
  "api_base": "https://api.hanzo.ai",
  "scopes": ["openid", "profile"]
}`

func TestStoreReadsAndPreservesHanzoCLIFormat(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "credentials.json", hanzoCLICredentials)
	writeFile(t, dir, "identities.json", `{"active":"work","identities":{"work":{"subject":"u-carol","access_token":"x","cli_profile":"w"},
		"personal":{"subject":"u-other","access_token":"y"}},"version":2}`)
	st := auth.NewStore(dir)
	c, err := st.Load()
	if err != nil {
		t.Fatal(err)
	}
	if c.AccessToken != "at-from-hanzo-cli" || c.RefreshToken != "rt-from-hanzo-cli" || c.Subject != "u-carol" ||
		c.Owner != "hanzo" || c.PlatformToken != "pt-from-hanzo-cli" || c.TokenType != "Bearer" || c.Expiry.Unix() != 1893456000 {
		t.Fatalf("loaded %v", c)
	}
	c.AccessToken = "at-new"
	c.Expiry = time.Unix(1893459600, 0)
	if err := st.Save(c); err != nil {
		t.Fatal(err)
	}
	var cred map[string]any
	readJSON(t, filepath.Join(dir, "credentials.json"), &cred)
	if cred["api_base"] != "https://api.hanzo.ai" || cred["scopes"] == nil || cred["access_token"] != "at-new" ||
		cred["expiry"] != float64(1893459600) || cred["platform_token"] != "pt-from-hanzo-cli" {
		t.Errorf("rewritten credentials.json = %v", cred)
	}
	var ids struct {
		Active     string                    `json:"active"`
		Identities map[string]map[string]any `json:"identities"`
		Version    float64                   `json:"version"`
	}
	readJSON(t, filepath.Join(dir, "identities.json"), &ids)
	if ids.Active != "work" || ids.Version != 2 || ids.Identities["work"]["access_token"] != "at-new" ||
		ids.Identities["work"]["cli_profile"] != "w" || ids.Identities["personal"]["access_token"] != "y" {
		t.Errorf("rewritten identities.json = %+v", ids)
	}
	for _, f := range []string{"credentials.json", "identities.json"} {
		if info, err := os.Stat(filepath.Join(dir, f)); err != nil || info.Mode().Perm() != 0o600 {
			t.Errorf("%s mode = %v (%v), want 0600", f, info.Mode().Perm(), err)
		}
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(leftovers) > 0 {
		t.Errorf("temp files left behind: %v", leftovers)
	}
}

func TestStoreNewDirAndIdentitiesFallback(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "hanzo")
	st := auth.NewStore(dir)
	if _, err := st.Load(); !errors.Is(err, auth.ErrNotLoggedIn) {
		t.Fatalf("empty store: err = %v, want ErrNotLoggedIn", err)
	}
	if err := st.Save(&auth.Credentials{AccessToken: "a", Subject: "u-1"}); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(dir); err != nil || info.Mode().Perm() != 0o700 {
		t.Errorf("store dir mode = %v (%v), want 0700", info.Mode().Perm(), err)
	}
	// Only identities.json (credentials.json gone): the active identity is the login.
	if err := os.Remove(filepath.Join(dir, "credentials.json")); err != nil {
		t.Fatal(err)
	}
	if c, err := st.Load(); err != nil || c.AccessToken != "a" {
		t.Errorf("identities fallback: %v %v", c, err)
	}
	if d, _ := auth.DefaultStoreDir(func(k string) string { return map[string]string{"HANZO_HOME": "/x/h"}[k] }); d != "/x/h" {
		t.Errorf("HANZO_HOME ignored: %s", d)
	}
}

// A user who ran `hanzo login` (a credentials.json of the hanzo CLI's shape
// holding a real token) is logged in here too.
func TestHanzoCLILoginIsShared(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	ours := t.TempDir()
	browserLogin(t, idp, newSession(idp, ours, nil), "alice", "alice-pw")
	c := readCreds(t, ours)
	theirs := t.TempDir()
	writeFile(t, theirs, "credentials.json", fmt.Sprintf(`{"access_token":%q,"refresh_token":%q,"token_type":"Bearer",
		"expiry":%d,"subject":"u-alice","owner":"hanzo","platform_token":"pt-alice","cli_version":"1.2.3"}`,
		c.AccessToken, c.RefreshToken, c.Expiry.Unix()))
	who, err := newSession(idp, theirs, nil).WhoAmI(context.Background())
	if err != nil || who.Subject != "u-alice" || who.Role != "OrgAdmin of acme" || who.ExpiresAt.IsZero() {
		t.Fatalf("whoami on the hanzo CLI's login: %+v %v", who, err)
	}
	// Logging in again here keeps what the hanzo CLI stored for the same user.
	browserLogin(t, idp, newSession(idp, theirs, nil), "alice", "alice-pw")
	var cred map[string]any
	readJSON(t, filepath.Join(theirs, "credentials.json"), &cred)
	if cred["cli_version"] != "1.2.3" || cred["platform_token"] != "pt-alice" || cred["access_token"] == c.AccessToken {
		t.Errorf("after a new login: cli_version=%v platform_token kept=%v new token=%v",
			cred["cli_version"], cred["platform_token"] == "pt-alice", cred["access_token"] != c.AccessToken)
	}
	// Another user's login does not inherit alice's platform token.
	browserLogin(t, idp, newSession(idp, theirs, nil), "bob", "bob-pw")
	readJSON(t, filepath.Join(theirs, "credentials.json"), &cred)
	if cred["platform_token"] != "" || cred["subject"] != "u-bob" {
		t.Errorf("bob's login kept platform_token=%v subject=%v", cred["platform_token"] != "", cred["subject"])
	}
}

func TestLogoutRevokesThenRemoves(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	dir := t.TempDir()
	s := newSession(idp, dir, nil)
	browserLogin(t, idp, s, "alice", "alice-pw")
	old := readCreds(t, dir)
	res, err := s.Logout(context.Background())
	if err != nil || !res.HadLogin || !res.Revoked {
		t.Fatalf("logout: %+v %v", res, err)
	}
	if _, err := s.Token(context.Background()); !errors.Is(err, auth.ErrNotLoggedIn) {
		t.Errorf("after logout: err = %v, want ErrNotLoggedIn", err)
	}
	// The revoked refresh token no longer works at the IdP.
	old.Expiry = time.Now()
	if err := auth.NewStore(dir).Save(old); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Token(context.Background()); !errors.Is(err, auth.ErrSessionExpired) {
		t.Errorf("revoked refresh token: err = %v, want ErrSessionExpired", err)
	}
}

func TestHANZOTOKENOverridesAndIsNeverRefreshed(t *testing.T) {
	t.Parallel()
	idp := testidp.Start(t, testidp.Options{})
	dir := t.TempDir()
	browserLogin(t, idp, newSession(idp, dir, nil), "root", "root-pw")
	tok := readCreds(t, dir).AccessToken
	s := auth.NewSession(auth.Options{
		Settings: auth.Settings{Issuer: idp.Issuer}, Store: auth.NewStore(t.TempDir()), HTTPClient: idp.HTTPClient(),
		EnvToken: tok, Now: func() time.Time { return time.Now().Add(4 * time.Minute) },
	})
	who, err := s.WhoAmI(context.Background())
	if err != nil || who.Source != "HANZO_TOKEN" || !who.SuperAdmin {
		t.Fatalf("whoami with HANZO_TOKEN: %+v %v", who, err)
	}
	if idp.Refreshes() != 0 {
		t.Error("HANZO_TOKEN was refreshed")
	}
}

func TestCredentialsNeverPrintTokens(t *testing.T) {
	t.Parallel()
	var c auth.Credentials
	if err := json.Unmarshal([]byte(hanzoCLICredentials), &c); err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	slog.New(slog.NewTextHandler(&sb, nil)).Info("creds", "c", c)
	text := fmt.Sprintf("%v %+v %#v %s", c, c, c, &c) + sb.String()
	assertNoSecrets(t, text, c.AccessToken, c.RefreshToken, c.PlatformToken)
}

func TestResolveSettings(t *testing.T) {
	t.Parallel()
	env := map[string]string{"HANZO_IAM_ISSUER": "https://env.example/", "HANZO_CLIENT_ID": "env-client"}
	get := func(k string) string { return env[k] }
	for _, tc := range []struct {
		flags, config auth.Settings
		getenv        func(string) string
		want          auth.Settings
	}{
		{auth.Settings{}, auth.Settings{}, nil, auth.Settings{Issuer: "https://hanzo.id", ClientID: "hanzo-cli"}},
		{auth.Settings{}, auth.Settings{Issuer: "https://cfg", ClientID: "cfg"}, nil, auth.Settings{Issuer: "https://cfg", ClientID: "cfg"}},
		{auth.Settings{}, auth.Settings{Issuer: "https://cfg"}, get, auth.Settings{Issuer: "https://env.example/", ClientID: "env-client"}}, // exactly as given
		{auth.Settings{Issuer: "https://flag", ClientID: "f"}, auth.Settings{}, get, auth.Settings{Issuer: "https://flag", ClientID: "f"}},
	} {
		if got := auth.ResolveSettings(tc.flags, tc.config, tc.getenv); got != tc.want {
			t.Errorf("ResolveSettings(%+v, %+v) = %+v, want %+v", tc.flags, tc.config, got, tc.want)
		}
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
