package cli

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/auth"
)

func TestIAMActor(t *testing.T) {
	iss := startIssuer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	actorFor := func(e *cliEnv) (*actor, *sessionIdentity, bool) {
		t.Helper()
		a := newApp(Streams{Getenv: func(k string) string { return e.vars[k] }})
		as, id, loggedIn, err := a.iamActor(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return as, id, loggedIn
	}

	e := newEnv(t)
	as, id, loggedIn := actorFor(e)
	if loggedIn || as.session != nil || as.principal() != nil || !errors.Is(id.Current().Err, auth.ErrNotLoggedIn) {
		t.Errorf("no login: loggedIn=%v session=%v state=%+v", loggedIn, as.session != nil, id.Current())
	}

	e.loginAs(iss, iss.token(t, "u-dana", "dana@acme.dev", orgRole{"acme", "admin"}))
	as, id, loggedIn = actorFor(e)
	p := as.principal()
	if !loggedIn || as.session == nil || p == nil || !p.OrgAdmin || p.HomeOrg != "acme" || id.Current().Source != auth.EnvToken {
		t.Errorf("OrgAdmin login: loggedIn=%v principal=%+v state=%+v", loggedIn, p, id.Current())
	}

	// A token the issuer did not sign is a login that does not work: the
	// scope still applies (restarts refused) and the reason is kept.
	forged := iss.token(t, "u-x", "x@acme.dev", orgRole{"admin", "member"})
	parts := strings.Split(forged, ".")
	e.vars["HANZO_TOKEN"] = parts[0] + "." + parts[1] + ".AAAA"
	as, id, loggedIn = actorFor(e)
	if !loggedIn || as.principal() != nil || !errors.Is(id.Current().Err, auth.ErrInvalidToken) {
		t.Errorf("forged token: loggedIn=%v state=%+v", loggedIn, id.Current())
	}
}
