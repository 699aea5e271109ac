package cli

import (
	"context"
	"sync"

	"github.com/hanzoai/driftboard/auth"
	"github.com/hanzoai/driftboard/internal/config"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/ui"
)

// loginFleets is the real board's fleetSource, its fleet replaced when the
// login changes: a login made inside the board (or in another terminal)
// reconnects the trusted clusters as the new IAM identity,
// a logout reconnects them as the kubeconfig user, without restarting the
// program. The identity labels, restart checks and watches all follow.
type loginFleets struct {
	a       *app
	eff     config.Effective
	id      *sessionIdentity
	s       *auth.Session
	changed chan struct{}
	reopen  sync.Mutex // one reconnect at a time

	mu     sync.RWMutex
	fl     *kube.Fleet
	cancel context.CancelFunc
	login  string // the login the fleet was opened with: subject, "?" invalid, "" none
}

func (a *app) openLoginFleets(ctx context.Context, eff config.Effective, id *sessionIdentity, s *auth.Session) (*loginFleets, error) {
	b := &loginFleets{a: a, eff: eff, id: id, s: s, changed: make(chan struct{}, 1)}
	if err := b.open(ctx, loginKey(id.Current())); err != nil {
		return nil, err
	}
	id.onRefresh = func(st ui.IdentityState) {
		if loginKey(st) != b.openedWith() {
			go b.reconnect(ctx)
		} else {
			b.signal() // the same login, re-read: the header redraws its state
		}
	}
	return b, nil
}

// loginKey names the login a state carries, to notice a change.
func loginKey(st ui.IdentityState) string {
	switch {
	case st.Principal != nil:
		return "sub:" + st.Principal.Subject
	case hasLogin(st):
		return "?" // a login that does not verify: IAM clients, restarts refused
	}
	return ""
}

func (b *loginFleets) openedWith() string {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.login
}

// reconnect reopens the fleet when the login differs from the one it was
// opened with; a reopen that finds no cluster keeps the current fleet.
func (b *loginFleets) reconnect(ctx context.Context) {
	b.reopen.Lock()
	defer b.reopen.Unlock()
	key := loginKey(b.id.Current())
	if key == b.openedWith() || ctx.Err() != nil {
		return
	}
	if err := b.open(ctx, key); err != nil {
		b.a.log.Warn("reconnect after the login changed", "err", err)
	}
}

func (b *loginFleets) open(ctx context.Context, key string) error {
	as := &actor{principal: b.id.principal}
	if key != "" {
		as.session = b.s
	}
	fctx, cancel := context.WithCancel(ctx)
	fl, err := b.a.openFleet(fctx, fleetRequest{as: as})
	if err != nil {
		cancel()
		return err
	}
	b.mu.Lock()
	old := b.cancel
	b.fl, b.cancel, b.login = fl, cancel, key
	b.mu.Unlock()
	if old != nil {
		old() // the previous identity's watches stop
	}
	go b.forward(fctx, fl)
	b.signal()
	return nil
}

func (b *loginFleets) forward(ctx context.Context, fl *kube.Fleet) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-fl.Changed():
			b.signal()
		}
	}
}

func (b *loginFleets) signal() {
	select {
	case b.changed <- struct{}{}:
	default:
	}
}

func (b *loginFleets) current() *kube.Fleet {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.fl
}

func (b *loginFleets) Changed() <-chan struct{} { return b.changed }
