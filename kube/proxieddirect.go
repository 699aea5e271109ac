package kube

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// DefaultDirectAfter is how long Karmada's search proxy fails before the
// members with a context of their own are read direct. A hung member makes
// the proxy answer 429 for every member until it is back: read direct, the
// others stay live and the hung one turns stale alone. The wait keeps a
// blip of the proxy from sending every board to every member at once.
const DefaultDirectAfter = 10 * time.Second

// directTopic is the running notice of a member read direct.
const directTopic = "karmada direct"

// degraded records a proxy call's outcome, starts the wait before direct
// reads on the first failure, and ends direct reads once every kind's
// calls answer again (fs.mu held).
func (fs *karmadaFeeds) degraded(what string, err error) {
	if errors.Is(err, context.Canceled) || apierrors.IsResourceExpired(err) || apierrors.IsGone(err) {
		return // our own shutdown, or a routine relist: not the proxy failing
	}
	if err != nil {
		if len(fs.failing) == 0 && fs.directAfter >= 0 {
			fs.timer = time.AfterFunc(fs.directAfter, fs.readDirect)
		}
		fs.failing[what] = callError(err)
		return
	}
	if _, was := fs.failing[what]; !was {
		return
	}
	delete(fs.failing, what)
	if len(fs.failing) > 0 {
		return
	}
	if fs.timer != nil {
		fs.timer.Stop()
	}
	if fs.direct {
		fs.switchTo(false)
	}
}

// readDirect starts direct reads if the proxy still fails.
func (fs *karmadaFeeds) readDirect() {
	fs.mu.Lock()
	if len(fs.failing) > 0 && !fs.direct {
		fs.switchTo(true)
	}
	fs.mu.Unlock()
	fs.tell()
}

// switchTo ends every proxied member's watches, so its informers relist
// from where they now read (fs.mu held).
func (fs *karmadaFeeds) switchTo(direct bool) {
	fs.direct = direct
	fs.answered = map[string]map[string]bool{}
	close(fs.switched)
	fs.switched = make(chan struct{})
}

// reading says whether member is read direct now, and the channel closed
// when that changes.
func (fs *karmadaFeeds) reading(member string) (bool, <-chan struct{}) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.direct && fs.withContext[member], fs.switched
}

// expect registers a kind the member's informers read; listedDirect records
// the member's first answer to its direct list since the switch.
func (fs *karmadaFeeds) expect(member, what string) {
	fs.mu.Lock()
	if fs.kinds[member] == nil {
		fs.kinds[member] = map[string]bool{}
	}
	fs.kinds[member][what] = true
	fs.mu.Unlock()
}

func (fs *karmadaFeeds) listedDirect(member, what string) {
	fs.mu.Lock()
	if fs.answered[member] == nil {
		fs.answered[member] = map[string]bool{}
	}
	first := !fs.answered[member][what]
	fs.answered[member][what] = true
	fs.mu.Unlock()
	if first {
		fs.tell()
	}
}

// tell gives every member the proxy's state: its failing kinds, unless the
// member is read direct; then that it is, and whether the member answered.
func (fs *karmadaFeeds) tell() {
	fs.mu.Lock()
	type told struct {
		conn            *connState
		direct, waiting bool
	}
	members := make([]told, 0, len(fs.byMember))
	for m, conn := range fs.byMember {
		t := told{conn: conn, direct: fs.direct && fs.withContext[m]}
		for what := range fs.kinds[m] {
			t.waiting = t.waiting || t.direct && !fs.answered[m][what]
		}
		members = append(members, t)
	}
	failing := make(map[string]error, len(fs.failing))
	var first error
	whats := make([]string, 0, len(fs.failing))
	for what, err := range fs.failing {
		failing[what] = err
		whats = append(whats, what)
	}
	sort.Strings(whats)
	if len(whats) > 0 {
		first = failing[whats[0]]
	}
	fs.mu.Unlock()
	directID := "karmada " + fs.source + " direct read"
	for _, m := range members {
		for what := range fs.byKind {
			id := "karmada " + fs.source + "/" + what
			if err := failing[what]; err != nil && !m.direct { // the proxy's own state, said as such
				m.conn.callFailed(id, fmt.Errorf("the search proxy of Karmada (%s) is degraded: %w", fs.source, err))
			} else {
				m.conn.callOK(id)
			}
		}
		note := ""
		if m.direct {
			note = fmt.Sprintf("read direct, as its context's identity, while the search proxy of Karmada (%s) is degraded: %s", fs.source, errText(first))
		}
		m.conn.setNote(directTopic, note)
		if m.waiting {
			m.conn.callFailed(directID, fmt.Errorf("the search proxy of Karmada (%s) is degraded (%s), and the member, read direct, has not answered yet", fs.source, errText(first)))
		} else {
			m.conn.callOK(directID)
		}
	}
}
