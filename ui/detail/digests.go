package ui

import (
	"context"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
)

// digestTimeout bounds one read of the pods' digests.
const digestTimeout = 15 * time.Second

// digestsMsg is a DigestReader's answer for one app; seq tells a stale
// answer (an earlier read, or another app) from the current one.
type digestsMsg struct {
	key     model.Key
	seq     uint64
	running model.PodDigests
	err     error
}

// digestRead is the detail's read of the digests its app's pods run.
type digestRead struct {
	seq     uint64
	loading bool
	done    bool // an answer arrived
	running model.PodDigests
	err     error
	basis   string // podFacts of the row the last read was made for
	again   bool   // the row changed during a read: read once more after it
}

// podFacts are the row facts that change when the pods do: a new read is
// worth its LIST only then, not on every snapshot.
func podFacts(r *model.AppView) string {
	w := r.Workload
	return fmt.Sprint(w.Found, w.Kind, w.Name, w.SpecTag, r.RunningTag, w.Desired, w.Ready, w.Updated,
		w.Available, w.Rollout, w.RestartedAt)
}

// readDigests starts a read for the open detail's row (nil when there is
// no workload to read pods of).
func (m *Model) readDigests(r *model.AppView) tea.Cmd {
	d := &m.detail.digests
	d.basis, d.again = podFacts(r), false
	rd := m.fleet
	if !r.Workload.Found {
		return nil
	}
	d.seq++
	d.loading = true
	ctx, k, seq := m.ctx, m.detail.key, d.seq
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, digestTimeout)
		defer cancel()
		running, err := rd.RunningDigests(ctx, k)
		return digestsMsg{key: k, seq: seq, running: running, err: err}
	}
}

// onDigests keeps the answer for the app still open; others are stale.
func (m *Model) onDigests(msg digestsMsg) tea.Cmd {
	d := &m.detail.digests
	if msg.key != m.detail.key || msg.seq != d.seq {
		return nil
	}
	d.loading, d.done, d.running, d.err = false, true, msg.running, msg.err
	if d.again && m.screen == screenDetail {
		if r := m.board.find(m.detail.key); r != nil {
			return m.readDigests(r)
		}
	}
	return nil
}

// followDigests re-reads while the detail is open and its pods changed.
func (m *Model) followDigests() tea.Cmd {
	if m.screen != screenDetail {
		return nil
	}
	r := m.board.find(m.detail.key)
	if r == nil || podFacts(r) == m.detail.digests.basis {
		return nil
	}
	if m.detail.digests.loading {
		m.detail.digests.again = true
		return nil
	}
	return m.readDigests(r)
}

// digestLines are the detail's registry truth: the digest the declared tag
// points at, the digests the pods run, and the verdict.
func (m *Model) digestLines(r *model.AppView, width int) []string {
	st := &m.st
	var out []string
	kv := func(k, v string) {
		out = append(out, wrapText(st.Dim.Render(fmt.Sprintf("%-16s", k))+format.Safe(v), width)...)
	}
	list := func(k string, vs []string) { // one digest a line: they are long
		kv(k, vs[0])
		for _, v := range vs[1:] {
			kv("", v)
		}
	}
	tag := r.Release.TagDigest
	kv("tag digest", orWords(tag, orWords(r.Release.DigestNote, "not read")))

	d := m.detail.digests
	running := d.running.Digests
	switch {
	case r.WaitsOnWorkload():
		kv("running digests", "unknown: the workload is not listed yet")
	case r.Workload.Unreadable != "":
		kv("running digests", "unknown: the workload may not be read")
	case !r.Workload.Found:
		kv("running digests", "no workload, no pods")
	case d.loading && (!d.done || d.err != nil): // a re-read keeps showing a good answer
		kv("running digests", "reading pods…")
	case model.IsNotAvailable(d.err):
		kv("running digests", d.err.Error())
	case d.err != nil:
		out = append(out, wrapText(st.Dim.Render(fmt.Sprintf("%-16s", "running digests"))+
			st.ErrText.Render("could not read: ")+format.Safe(d.err.Error()), width)...)
	case d.done && len(running) == 0: // no pods, or pods without digests: say which
		kv("running digests", "none: "+d.running.Note())
	case d.done:
		list("running digests", running)
		if note := d.running.Note(); note != "" { // the digests are those of some pods only
			kv("", note)
		}
	case len(r.Workload.Digests) > 0: // the source observed them itself
		running = r.Workload.Digests
		list("running digests", running)
	default:
		kv("running digests", "not read")
	}

	check := r.DigestCheck(running)
	if note := check.NotCompared(); note != "" { // another tag's digest: no verdict either way
		out = append(out, wrapText(st.Dim.Render(format.Safe(note)), width)...)
	}
	switch note := check.Note(); {
	case note != "":
		out = append(out, wrapText(st.WarnText.Render("▲ "+format.Safe(note)), width)...)
	case check.NotCompared() != "":
	case tag != "" && len(check.Running) > 0 && d.running.NoDigest == 0: // every pod read said which
		out = append(out, st.OkText.Render("✓ the pods run the digest the tag points at"))
	}
	return out
}

func orWords(s, words string) string {
	if s == "" {
		return words
	}
	return s
}
