package auth_test

import (
	"testing"

	"github.com/hanzoai/driftboard/auth/internal/testidp"
)

// TestIdentityKeysAsTheGoCLIMakesThem: a new login is stored under
// <owner>/<email-local-part>; an entry of the same user under an older key
// keeps being used; another org's user with the same local part is another
// identity.
func TestIdentityKeysAsTheGoCLIMakesThem(t *testing.T) {
	t.Parallel()
	users := append(testidp.DefaultUsers(), testidp.User{ID: "u-alice-zoo", Username: "alice-zoo", Password: "pw",
		Email: "alice@zoo.test", Name: "Alice Zoo", Owner: "zoo", Orgs: []testidp.Org{{Org: "zoo", Role: "member"}}})
	idp := testidp.Start(t, testidp.Options{Users: users})

	dir := t.TempDir()
	browserLogin(t, idp, newSession(idp, dir, nil), "alice", "alice-pw")
	if active, _ := goCLIView(t, dir); active != "acme/alice" {
		t.Errorf("a new login is stored as %q, want acme/alice", active)
	}
	browserLogin(t, idp, newSession(idp, dir, nil), "alice-zoo", "pw")
	if active, _ := goCLIView(t, dir); active != "zoo/alice" {
		t.Errorf("the same local part in another org is stored as %q, want zoo/alice", active)
	}
	var ids struct {
		Identities map[string]any `json:"identities"`
	}
	readJSON(t, dir+"/identities.json", &ids)
	if len(ids.Identities) != 2 {
		t.Errorf("identities = %v, want acme/alice and zoo/alice", ids.Identities)
	}

	legacy := t.TempDir()
	writeFile(t, legacy, "identities.json", `{"active":"","identities":{"u-alice":{"subject":"u-alice","access_token":"old"}}}`)
	browserLogin(t, idp, newSession(idp, legacy, nil), "alice", "alice-pw")
	active, at := goCLIView(t, legacy)
	if active != "u-alice" || at == "old" {
		t.Errorf("a login of a user stored under an older key went to %q (updated: %v), want u-alice updated", active, at != "old")
	}
}
