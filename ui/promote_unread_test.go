package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
)

// A poll that cannot read a promotion again keeps what was observed and
// says it is not current: "?" in PROMOTE, the reason in the detail; the
// next good read clears it, and the poll goes on meanwhile.
func TestPromotionUnreadSaysSo(t *testing.T) {
	p := &fakePromoter{steps: []model.PromotionStep{model.PromotionMerged}}
	m := newPromoteModel(t, p)
	typeText(m, "/explorer")
	press(m, "enter", "p", "y")
	poll := func() {
		t.Helper()
		_, cmd := m.Update(promotePollMsg{})
		feedBack(m, cmd, time.Second, func(msg tea.Msg) bool { _, ok := msg.(promotionsMsg); return ok })
	}
	p.failNext = errors.New("GitHub: 502 Bad Gateway")
	poll()
	if got := promoteCol(t, m, "explorer"); got != "? PR open" {
		t.Fatalf("after a failed read PROMOTE of explorer = %q, want \"? PR open\":\n%s", got, plainView(m))
	}
	if !m.promoteFollowing {
		t.Fatal("a failed read stopped the poll")
	}
	press(m, "enter")
	if v := plainView(m); !strings.Contains(v, "not read again: GitHub: 502 Bad Gateway") {
		t.Fatalf("the detail does not say the promotion was not read again:\n%s", v)
	}
	press(m, "esc")
	poll()
	if got := promoteCol(t, m, "explorer"); got != "merged" {
		t.Fatalf("after a good read PROMOTE of explorer = %q, want merged:\n%s", got, plainView(m))
	}
}
