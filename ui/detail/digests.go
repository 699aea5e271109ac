package detail

import (
	"context"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/styles"
)

// digestTimeout bounds one read of the pods' digests.
const digestTimeout = 15 * time.Second

// DigestsMsg is the Reader's answer for one app; Seq tells a stale answer
// (an earlier read, or another app) from the current one.
type DigestsMsg struct {
	Key     model.Key
	Seq     uint64
	Running model.PodDigests
	Err     error
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

// ReadDigests starts a read for the row shown (nil when there is no
// workload to read pods of).
func (d *View) ReadDigests(r *model.AppView) tea.Cmd {
	g := &d.digests
	g.basis, g.again = podFacts(r), false
	rd := d.rd
	if !r.Workload.Found {
		return nil
	}
	g.seq++
	g.loading = true
	ctx, k, seq := d.ctx, d.key, g.seq
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, digestTimeout)
		defer cancel()
		running, err := rd.RunningDigests(ctx, k)
		return DigestsMsg{Key: k, Seq: seq, Running: running, Err: err}
	}
}

// onDigests keeps the answer for the app still open; others are stale.
func (d *View) onDigests(msg DigestsMsg) Action {
	g := &d.digests
	if msg.Key != d.key || msg.Seq != g.seq {
		return None
	}
	g.loading, g.done, g.running, g.err = false, true, msg.Running, msg.Err
	if g.again {
		return Reread
	}
	return None
}

// Follow re-reads the digests when the pods of r, the row shown, changed.
func (d *View) Follow(r *model.AppView) tea.Cmd {
	if r == nil || podFacts(r) == d.digests.basis {
		return nil
	}
	if d.digests.loading {
		d.digests.again = true
		return nil
	}
	return d.ReadDigests(r)
}

// DigestsRead reports that an answer of the digests' read arrived.
func (d View) DigestsRead() bool { return d.digests.done }

// digestLines are the detail's registry truth: the digest the declared tag
// points at, the digests the pods run, and the verdict.
func (d *View) digestLines(st *styles.Styles, r *model.AppView, width int) []string {
	var out []string
	kv := func(k, v string) {
		out = append(out, format.Wrap(st.Dim.Render(fmt.Sprintf("%-16s", k))+format.Safe(v), width)...)
	}
	list := func(k string, vs []string) { // one digest a line: they are long
		kv(k, vs[0])
		for _, v := range vs[1:] {
			kv("", v)
		}
	}
	tag := r.Release.TagDigest
	kv("tag digest", orWords(tag, orWords(r.Release.DigestNote, "not read")))

	g := d.digests
	running := g.running.Digests
	switch {
	case r.WaitsOnWorkload():
		kv("running digests", "unknown: the workload is not listed yet")
	case r.Workload.Unreadable != "":
		kv("running digests", "unknown: the workload may not be read")
	case !r.Workload.Found:
		kv("running digests", "no workload, no pods")
	case g.loading && (!g.done || g.err != nil): // a re-read keeps showing a good answer
		kv("running digests", "reading pods…")
	case model.IsNotAvailable(g.err):
		kv("running digests", g.err.Error())
	case g.err != nil:
		out = append(out, format.Wrap(st.Dim.Render(fmt.Sprintf("%-16s", "running digests"))+
			st.ErrText.Render("could not read: ")+format.Safe(g.err.Error()), width)...)
	case g.done && len(running) == 0: // no pods, or pods without digests: say which
		kv("running digests", "none: "+g.running.Note())
	case g.done:
		list("running digests", running)
		if note := g.running.Note(); note != "" { // the digests are those of some pods only
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
		out = append(out, format.Wrap(st.Dim.Render(format.Safe(note)), width)...)
	}
	switch note := check.Note(); {
	case note != "":
		out = append(out, format.Wrap(st.WarnText.Render("▲ "+format.Safe(note)), width)...)
	case check.NotCompared() != "":
	case tag != "" && len(check.Running) > 0 && g.running.NoDigest == 0: // every pod read said which
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
