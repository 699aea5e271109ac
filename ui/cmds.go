package ui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// coalesceDelay spaces snapshots at least this far apart: bursts of watch
// events become at most ~30 frames per second, while a change after a quiet
// spell is shown at once.
const coalesceDelay = 33 * time.Millisecond

// syncingDelay spaces snapshots while a cluster's first lists stream and
// rows are on screen: each then only moves the "syncing n/N" count and the
// rows coming in, and at ~30 a second a 10,000-App start took 105–156 of
// them (23–56 at this pace), more the longer the API server takes. The full
// board is not held back by it: the wait ends once every cluster has
// settled (Settler).
const syncingDelay = 100 * time.Millisecond

// Settler is the Source's Settled: closed once every cluster's first sync
// has ended (synced, or failed), so the snapshot that shows the whole fleet
// is taken at once rather than at the syncing pace. A source with nothing
// to sync returns a closed channel.
type Settler interface {
	Settled() <-chan struct{}
}

type (
	// snapshotMsg carries a fresh snapshot taken off the event loop.
	snapshotMsg struct{ snap *store.Snapshot }
	// checkedMsg is the check's answer for the dialog and the detail.
	checkedMsg struct {
		key model.Key
		chk restart.Checked
	}
	// restartedMsg is Restart's result.
	restartedMsg struct {
		key model.Key
		err error
	}
	// followedMsg is how a restart's rollout ended.
	followedMsg struct {
		key model.Key
		err error
	}
	identityMsg struct{ state IdentityState }
	// switchedMsg is the identity read after a login that switched users
	// (the demo's), for the status line to name who.
	switchedMsg    struct{ state IdentityState }
	expiryMsg      struct{}
	loginPromptMsg struct {
		prompt LoginPrompt
		ch     chan LoginPrompt // drained one prompt at a time
	}
	loginDoneMsg    struct{ err error }
	loginChanClosed struct{}
)

// takeSnapshot reads the source once, right away (first frame).
func takeSnapshot(src Source) tea.Cmd {
	return func() tea.Msg { return snapshotMsg{src.Snapshot()} }
}

// waitForChange blocks until the source signals, then snapshots once delay
// has passed since the previous snapshot (taken at prev): further signals
// meanwhile collapse into the capacity-1 channel. Past coalesceDelay, the
// wait ends early when the source's clusters settle. It returns nil (no
// message) when ctx ends.
func waitForChange(ctx context.Context, src Source, prev time.Time, delay time.Duration) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-ctx.Done():
			return nil
		case <-src.Changed():
		}
		if !sleepUntil(ctx, prev.Add(min(delay, coalesceDelay)), nil) {
			return nil
		}
		if delay > coalesceDelay {
			if !sleepUntil(ctx, prev.Add(delay), src.Settled()) {
				return nil
			}
		}
		return snapshotMsg{src.Snapshot()}
	}
}

// sleepUntil waits for the time at, or until early is closed; false when ctx
// ended first.
func sleepUntil(ctx context.Context, at time.Time, early <-chan struct{}) bool {
	wait := time.Until(at)
	if wait <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-early:
	case <-t.C:
	}
	return true
}

func checkRestart(ctx context.Context, r Restarter, row *model.AppView) tea.Cmd {
	return func() tea.Msg {
		chk, _ := r.Check(ctx, restart.CheckInput{Row: row}) // a refusal is in chk.Decision
		return checkedMsg{key: row.Key(), chk: chk}
	}
}

func doRestart(ctx context.Context, r Restarter, in restart.Input) tea.Cmd {
	return func() tea.Msg {
		_, err := r.Restart(ctx, in)
		return restartedMsg{key: in.Checked.Key, err: err}
	}
}

func followRestart(ctx context.Context, r Restarter, k model.Key) tea.Cmd {
	return func() tea.Msg {
		_, err := r.Follow(ctx, restart.FollowInput{Key: k})
		return followedMsg{key: k, err: err}
	}
}

func readIdentity(id Identity) tea.Cmd {
	return func() tea.Msg { return identityMsg{id.Current()} }
}

// readSwitchedIdentity reads who a login switched to, for the status line.
func readSwitchedIdentity(id Identity) tea.Cmd {
	return func() tea.Msg { return switchedMsg{id.Current()} }
}

// expiryTimer fires once when the token expires, so the board says so even
// when nothing else happens. It is a single timer, not a periodic redraw.
func expiryTimer(at, now time.Time) tea.Cmd {
	d := at.Sub(now)
	if at.IsZero() || d <= 0 || d > 48*time.Hour {
		return nil
	}
	return tea.Tick(d+time.Second, func(time.Time) tea.Msg { return expiryMsg{} })
}

// runLogin runs the identity's login; prompts arrive on ch, closed at the end.
func runLogin(ctx context.Context, id Identity, ch chan LoginPrompt) tea.Cmd {
	return func() tea.Msg {
		defer close(ch)
		err := id.Login(ctx, func(p LoginPrompt) {
			select {
			case ch <- p:
			case <-ctx.Done():
			}
		})
		return loginDoneMsg{err: err}
	}
}

func waitLoginPrompt(ch chan LoginPrompt) tea.Cmd {
	return func() tea.Msg {
		p, ok := <-ch
		if !ok {
			return loginChanClosed{}
		}
		return loginPromptMsg{p, ch}
	}
}
