package kube

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/hanzoai/driftboard/kube/execcred"
	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
)

// connState follows one cluster's connection. Every informer's list and
// watch calls report here (see observedLW): a failing call marks the
// informer down, a successful one marks it up again. The cluster is live
// only when set up, synced, and no informer is down; so rows are stale from
// the first failed call until every watch is re-established. No probes run:
// the reflectors' own retries are the health check.
type connState struct {
	mu      sync.Mutex
	name    string
	now     func() time.Time
	onMove  func() // called (without the lock) when the phase may have changed
	phase   model.ConnPhase
	since   time.Time
	reason  string
	fixed   []string            // notices given with the clients; they come first
	notices []string            // notices of the last setup
	notes   map[string][]string // notices found while running, by topic
	synced  bool
	down    map[string]string // informer id → last error
	downAt  time.Time

	progress     syncProgress // Apps received while syncing (see progress.go)
	hear         hearing      // last sign of life (see liveness.go)
	unresponsive bool         // nothing heard for silenceLimit
	heardAt      time.Time    // the last sign of life when it went silent

	setupFailed bool // failed(): only setUp clears it
	// retry is the setup loop's state while it retries (retrying()).
	retry struct {
		attempt     int
		at          time.Time
		unreachable bool
	}
	// stuck: a call of the first sync kept failing for the fleet's
	// SyncFailAfter; the cluster is failed until every call succeeds.
	stuck bool
}

func newConnState(name string, now func() time.Time, onMove func(), fixed []string) *connState {
	return &connState{name: name, now: now, onMove: onMove, phase: model.ConnSyncing, since: now(), down: map[string]string{},
		fixed: slices.Clone(fixed)}
}

func (c *connState) state() model.ClusterState {
	c.mu.Lock()
	defer c.mu.Unlock()
	notices := c.notices
	if len(c.fixed) > 0 || len(c.notes) > 0 {
		notices = append(slices.Clone(c.fixed), c.notices...)
		for _, topic := range slices.Sorted(maps.Keys(c.notes)) {
			notices = append(notices, c.notes[topic]...)
		}
	}
	st := model.ClusterState{Name: c.name, Phase: c.phase, Since: c.since, Reason: c.reason, Notices: notices}
	if st.Phase == model.ConnSyncing {
		st.Listed, st.Expected = c.progress.counts()
	}
	if c.setupFailed && c.retry.attempt > 0 {
		st.Attempt, st.RetryAt, st.Unreachable = c.retry.attempt, c.retry.at, c.retry.unreachable
	}
	return st
}

// recompute derives the phase; callers hold the lock. It returns whether it moved.
func (c *connState) recompute() bool {
	var phase model.ConnPhase // each case below sets it
	reason, since := c.reason, c.since
	if c.setupFailed {
		return false // set explicitly; only setup clears it
	}
	if len(c.down) == 0 {
		c.stuck = false
	}
	switch {
	case len(c.down) > 0:
		first := ""
		for id, r := range c.down { // the same informer's error each time, so the text does not flicker
			if first == "" || id < first {
				first, reason = id, r
			}
		}
		switch {
		case c.synced:
			phase = model.ConnReconnecting
		case c.stuck:
			phase, reason = model.ConnFailed, firstListFailing(first, reason)
		default:
			phase, reason = model.ConnSyncing, firstListRetrying(first, reason)
		}
		since = c.downAt
	case !c.synced && !c.unresponsive:
		phase, reason = model.ConnSyncing, ""
	case c.unresponsive:
		phase, reason, since = model.ConnUnresponsive, unresponsiveReason(c.heardAt), c.heardAt
	default:
		phase, reason = model.ConnLive, ""
	}
	if phase == c.phase && reason == c.reason {
		return false
	}
	if phase != c.phase {
		if phase == model.ConnLive || phase == model.ConnReconnecting && since.IsZero() {
			since = c.now()
		}
		c.since = since
	}
	c.phase, c.reason = phase, reason
	return true
}

func (c *connState) update(f func()) {
	c.mu.Lock()
	f()
	moved := c.recompute()
	c.mu.Unlock()
	if moved && c.onMove != nil {
		c.onMove()
	}
}

// failed puts the cluster in the failed phase (setup could not complete).
func (c *connState) failed(reason string) {
	c.mu.Lock()
	moved := c.phase != model.ConnFailed || c.reason != reason
	if c.phase != model.ConnFailed {
		c.since = c.now()
	}
	c.phase, c.reason, c.setupFailed = model.ConnFailed, reason, true
	c.mu.Unlock()
	if moved && c.onMove != nil {
		c.onMove()
	}
}

// retrying is failed, said by the setup loop that tries again: attempt
// (from 1) failed with err, and the next begins after wait.
func (c *connState) retrying(err error, attempt int, wait time.Duration) {
	c.mu.Lock()
	c.retry.attempt, c.retry.at, c.retry.unreachable = attempt, c.now().Add(wait), netUnreachable(err)
	c.mu.Unlock()
	c.failed(reasonOf(err))
	if c.onMove != nil {
		c.onMove() // the attempt moved even when the words did not
	}
}

// setUp leaves the failed phase: informers are about to start.
func (c *connState) setUp(notices []string) {
	c.update(func() {
		c.phase, c.since, c.reason, c.notices, c.setupFailed = model.ConnSyncing, c.now(), "", notices, false
		c.retry.attempt = 0
	})
}

// addNotices adds notices of the setup found after the informers started.
func (c *connState) addNotices(notices []string) {
	if len(notices) == 0 {
		return
	}
	c.mu.Lock()
	c.notices = append(slices.Clip(c.notices), notices...)
	c.mu.Unlock()
	if c.onMove != nil {
		c.onMove()
	}
}

// setNote sets (text "" clears) the running notice on topic.
func (c *connState) setNote(topic, text string) {
	var texts []string
	if text != "" {
		texts = []string{text}
	}
	c.setNotes(topic, texts)
}

// setNotes sets the running notices on topic (none clears them): what a
// topic says replaces what it said, so it describes the current state.
func (c *connState) setNotes(topic string, texts []string) {
	c.mu.Lock()
	changed := !slices.Equal(c.notes[topic], texts)
	if len(texts) == 0 {
		delete(c.notes, topic)
	} else {
		if c.notes == nil {
			c.notes = map[string][]string{}
		}
		c.notes[topic] = slices.Clone(texts)
	}
	c.mu.Unlock()
	if changed && c.onMove != nil {
		c.onMove()
	}
}

// forget drops an informer that was stopped on purpose from the failing ones.
func (c *connState) forget(id string) {
	c.mu.Lock()
	_, down := c.down[id]
	c.mu.Unlock()
	if down {
		c.update(func() { delete(c.down, id) })
	}
}

func (c *connState) markSynced() { c.update(func() { c.synced = true }) }

func (c *connState) callFailed(id string, err error) {
	if errors.Is(err, context.Canceled) || apierrors.IsResourceExpired(err) || apierrors.IsGone(err) {
		return // our own shutdown, or a routine relist
	}
	c.update(func() {
		if len(c.down) == 0 {
			c.downAt = c.now()
		}
		c.down[id] = errText(err)
		if !c.synced && refusedForGood(err) {
			c.stuck = true
		}
	})
}

func (c *connState) callOK(id string) {
	c.heard()
	c.mu.Lock()
	_, wasDown := c.down[id]
	c.mu.Unlock()
	if wasDown {
		c.update(func() { delete(c.down, id) })
	}
}

// errText is the error as a sentence for the board, shortened.
// shortError reads as errText but keeps err as its cause, so callers can
// still branch with apierrors.IsForbidden and errors.As.
type shortError struct{ err error }

func (e shortError) Error() string { return errText(e.err) }
func (e shortError) Unwrap() error { return e.err }

func apiErr(err error) error { return shortError{err} }

func errText(err error) string {
	var pe *execcred.Error
	switch {
	case errors.As(err, &pe): // the plugin's words, not the request it failed
		return wire.Truncate(pe.Error(), wire.MaxMessage)
	case apierrors.IsForbidden(err):
		return "forbidden: " + wire.Truncate(err.Error(), wire.MaxMessage)
	case apierrors.IsUnauthorized(err):
		return "unauthorized (credentials rejected or expired): " + wire.Truncate(err.Error(), wire.MaxMessage)
	}
	return wire.Truncate(err.Error(), wire.MaxMessage)
}
