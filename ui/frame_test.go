package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
)

// TestOffScreenChangeDefersOnlyTheHeader: on a board bigger than the
// screen, a change to a row far below redraws nothing at once (its only
// visible effect, the header's figures, follows within headerDelay), while a
// change to a shown row is drawn by the very next frame.
func TestOffScreenChangeDefersOnlyTheHeader(t *testing.T) {
	src, rows, m := nameSortedBoard(t, 500)
	before := plainView(m)
	if !strings.Contains(before, "svc-00000") || strings.Contains(before, "svc-00499") {
		t.Fatalf("want svc-00000 on screen and svc-00499 off it:\n%s", before)
	}

	far := rows[499]
	far.Drift.Severity = drift.SeverityRed // the header's counts change
	src.upsert(far)
	_, cmd := m.Update(snapshotMsg{src.Snapshot()})
	if got := plainView(m); got != before {
		t.Fatalf("an off-screen change redrew the frame at once:\n%s", got)
	}
	if cmd == nil {
		t.Fatal("no header refresh was scheduled after a deferred change")
	}
	m.Update(headerDueMsg{at: time.Now().Add(headerDelay)})
	after := plainView(m)
	if summaryOf(after) == summaryOf(before) {
		t.Fatalf("the header did not catch up after headerDueMsg: %s", summaryOf(after))
	}

	near := rows[0]
	near.DeclaredTag = "v7.7.7"
	src.upsert(near)
	m.Update(snapshotMsg{src.Snapshot()})
	if got := plainView(m); !strings.Contains(got, "v7.7.7") {
		t.Fatalf("a change to a shown row is not on the next frame:\n%s", got)
	}
}

// TestDrawnFrameSatisfiesTheHeader: a frame drawn for a shown row carries
// the fresh header, so a header deferral pending since before it draws
// nothing more; a change deferred after that frame is drawn a full
// headerDelay after it arrived, not before and not later.
func TestDrawnFrameSatisfiesTheHeader(t *testing.T) {
	src, rows, m := nameSortedBoard(t, 500)
	plainView(m)

	far := rows[499]
	far.Drift.Severity = drift.SeverityRed
	src.upsert(far)
	if _, cmd := m.Update(snapshotMsg{src.Snapshot()}); cmd == nil || !m.frame.valid {
		t.Fatalf("an off-screen change was not deferred (valid %v, timer %v)", m.frame.valid, cmd != nil)
	}
	near := rows[0]
	near.DeclaredTag = "v7.7.7"
	src.upsert(near)
	m.Update(snapshotMsg{src.Snapshot()})
	drawn := plainView(m)
	if !strings.Contains(drawn, "v7.7.7") || !strings.Contains(summaryOf(drawn), "✖ 72 red") {
		t.Fatalf("the shown row's frame lacks the row or the fresh header:\n%s", drawn)
	}
	if _, cmd := m.Update(headerDueMsg{at: time.Now().Add(headerDelay)}); !m.frame.valid || cmd != nil {
		t.Fatalf("the header's timer redrew a frame already drawn with it (valid %v, timer %v)", m.frame.valid, cmd != nil)
	}

	// Stale again after that frame: drawn headerDelay after it arrived.
	far.Drift.Severity = drift.SeverityYellow
	src.upsert(far)
	if _, cmd := m.Update(snapshotMsg{src.Snapshot()}); cmd == nil || !m.frame.valid {
		t.Fatalf("a second off-screen change was not deferred (valid %v, timer %v)", m.frame.valid, cmd != nil)
	}
	since := m.frame.staleSince
	time.Sleep(2 * time.Millisecond) // a later change keeps the first one's deadline
	other := rows[498]
	other.Phase = "Pending"
	src.upsert(other)
	m.Update(snapshotMsg{src.Snapshot()})
	if _, cmd := m.Update(headerDueMsg{at: since.Add(headerDelay / 2)}); !m.frame.valid || cmd == nil {
		t.Fatalf("half a delay after the change: want no frame yet and the timer re-armed (valid %v, timer %v)", m.frame.valid, cmd != nil)
	}
	m.Update(headerDueMsg{at: since.Add(headerDelay)})
	if got := summaryOf(plainView(m)); !strings.Contains(got, "✖ 71 red") {
		t.Fatalf("the header did not catch up a full delay after the change: %s", got)
	}
}

// summaryOf is the frame's second line (severity counts, rows shown).
func summaryOf(frame string) string {
	lines := strings.Split(frame, "\n")
	if len(lines) < 2 {
		return ""
	}
	return strings.TrimSpace(lines[1])
}

// nameSortedBoard is a 160×30 board of n rows sorted by name (svc-00000
// first, the last row far below the screen).
func nameSortedBoard(t testing.TB, n int) (*storeSource, []model.AppView, *Model) {
	t.Helper()
	return nameSortedBoardSized(t, n, 160, 30)
}

// nameSortedBoardSized is nameSortedBoard on a w×h terminal.
func nameSortedBoardSized(t testing.TB, n, w, h int) (*storeSource, []model.AppView, *Model) {
	t.Helper()
	src := newStoreSource()
	rows := bigFleet(n)
	src.upsert(rows...)
	dark := true
	m := newModel(context.Background(), fleetOf(src, nil), nil, Options{Now: fixedNow, DarkBackground: &dark})
	t.Cleanup(m.cancel)
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.Update(snapshotMsg{src.Snapshot()})
	m.board.CycleSort()
	m.Update(snapshotMsg{src.Snapshot()})
	return src, rows, m
}

// TestUnseenChangeToAShownRowDrawsNothing: a shown row replaced by one that
// looks the same (it changed only in what the board does not show) redraws
// nothing at once, like a change off screen; a change the row shows is drawn
// by the very next frame.
func TestUnseenChangeToAShownRowDrawsNothing(t *testing.T) {
	src, rows, m := nameSortedBoard(t, 500)
	before := plainView(m)
	rendered := m.board.Rendered()

	shown := rows[3]
	shown.ObservedAt = t0.Add(time.Minute)
	shown.Labels = map[string]string{"team": "payments"}
	src.upsert(shown)
	m.Update(snapshotMsg{src.Snapshot()})
	if !m.frame.valid || !m.frame.due {
		t.Fatalf("an unseen change to a shown row redrew the frame (valid %v, header timer armed %v)", m.frame.valid, m.frame.due)
	}
	if got := plainView(m); got != before {
		t.Fatalf("the frame changed:\n%s", got)
	}

	shown.DeclaredTag = "v7.7.7"
	src.upsert(shown)
	m.Update(snapshotMsg{src.Snapshot()})
	if got := plainView(m); !strings.Contains(got, "v7.7.7") {
		t.Fatalf("a change the row shows is not on the next frame:\n%s", got)
	}
	if n := m.board.Rendered() - rendered; n != 2 {
		t.Fatalf("%d lines rendered for the two changes, want 2 (the unseen one's line is reused)", n)
	}
}
