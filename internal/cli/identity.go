package cli

import (
	"cmp"
	"context"
	"errors"
	"runtime"
	"sync"
	"time"

	"github.com/hanzoai/driftboard/auth"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui"
)

// sessionIdentity is the board's ui.Identity over an auth.Session. Current
// is called while drawing, so it returns a cached state; the state is
// re-read in the background shortly before the token expires.
type sessionIdentity struct {
	s           *auth.Session
	openBrowser func(string) error
	now         func() time.Time

	kick chan struct{} // a store changed: re-read now

	mu    sync.Mutex
	state ui.IdentityState
	// onRefresh, when set before run starts, sees every re-read state (the
	// board reconnects when the login changed).
	onRefresh func(ui.IdentityState)
}

func newSessionIdentity(s *auth.Session, browser func(string) error) *sessionIdentity {
	return &sessionIdentity{s: s, openBrowser: browser, now: time.Now, kick: make(chan struct{}, 1)}
}

// Current is the identity the board acts as now.
func (si *sessionIdentity) Current() ui.IdentityState {
	si.mu.Lock()
	defer si.mu.Unlock()
	return si.state
}

// principal is the fleet's Principal function: nil when not logged in.
func (si *sessionIdentity) principal() *model.Principal {
	st := si.Current()
	if !st.LoggedIn(si.now()) {
		return nil
	}
	return st.Principal
}

// refresh re-reads the stored login (refreshing the token when due) and
// verifies it.
func (si *sessionIdentity) refresh(ctx context.Context) {
	who, err := si.s.WhoAmI(ctx)
	st := ui.IdentityState{Err: err}
	if err == nil {
		p := who.Principal
		st = ui.IdentityState{Principal: &p, Expiry: who.ExpiresAt, Source: who.Source}
	}
	si.mu.Lock()
	si.state = st
	si.mu.Unlock()
	if si.onRefresh != nil {
		si.onRefresh(st)
	}
}

// run keeps the state current until ctx ends: it re-reads the login a
// little before the token expires (the session refreshes it then), and as
// soon as a store changes (a login or logout in another terminal; the
// session watches the files, without waking the board while nothing does).
func (si *sessionIdentity) run(ctx context.Context) {
	go si.s.Watch(ctx, func() {
		select {
		case si.kick <- struct{}{}:
		default:
		}
	})
	for {
		wait := 10 * time.Minute
		st := si.Current()
		switch {
		case errors.Is(st.Err, auth.ErrIdPUnavailable):
			wait = 30 * time.Second // the IdP may be back soon
		case !st.Expiry.IsZero():
			wait = min(wait, max(st.Expiry.Sub(si.now())-auth.DefaultRefreshMargin+5*time.Second, 5*time.Second))
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		case <-si.kick:
		}
		si.refresh(ctx)
	}
}

// Login runs the login from inside the board; prompts go to its dialog.
func (si *sessionIdentity) Login(ctx context.Context, prompt func(ui.LoginPrompt)) error {
	opts := auth.LoginOptions{
		OpenBrowser: si.openBrowser,
		Prompt: func(p auth.Prompt) {
			prompt(ui.LoginPrompt{
				UserCode:                p.UserCode,
				VerificationURI:         cmp.Or(p.VerificationURI, p.BrowserURL),
				VerificationURIComplete: p.VerificationURIComplete,
				ExpiresAt:               p.ExpiresAt,
				BrowserOpened:           p.Kind == auth.PromptBrowser,
			})
		},
	}
	if _, err := si.s.Login(ctx, opts); err != nil {
		return err
	}
	si.refresh(ctx)
	if st := si.Current(); st.Err != nil {
		return st.Err
	}
	return nil
}

// hasLogin reports whether a login exists at all (stored or HANZO_TOKEN),
// valid or not: it decides whether the IAM scope applies.
func hasLogin(st ui.IdentityState) bool {
	// An unreadable store is no login: reads go on as the kubeconfig user
	// and restarts are refused, with the state's error saying why.
	return st.Principal != nil || (st.Err != nil && !errors.Is(st.Err, auth.ErrNotLoggedIn) && !errors.Is(st.Err, auth.ErrStoreCorrupt))
}

// iamActor is who the board and restarts act as. The IAM scope always
// applies to restarts (not logged in: refused, as in the board's dialog);
// when a login exists (stored or HANZO_TOKEN) requests also carry the IAM
// token. loggedIn reports whether a login exists at all, valid or not.
func (a *app) iamActor(ctx context.Context) (as *actor, id *sessionIdentity, loggedIn bool, err error) {
	s, err := a.session()
	if err != nil {
		return nil, nil, false, err
	}
	// The board's L follows login's --grant-type auto: no browser over SSH
	// or without a display, where it would open out of the person's reach.
	var opener func(string) error
	if g, _ := chooseGrant(grantAuto, a.streams.InTerminal, a.streams.Getenv, runtime.GOOS); g.browser {
		opener = openBrowser
	}
	id = newSessionIdentity(s, opener)
	rctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	id.refresh(rctx)
	as = &actor{principal: id.principal}
	st := id.Current()
	if !hasLogin(st) {
		return as, id, false, nil
	}
	as.session = s
	return as, id, true, nil
}
