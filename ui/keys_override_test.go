package ui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/google/go-cmp/cmp"
	"github.com/hanzoai/driftboard/ui/dialog"
	"github.com/hanzoai/driftboard/ui/keymap"
)

func TestKeyOverridesRebindActionsAndHelp(t *testing.T) {
	opts := Options{Keys: map[string][]string{"restart": {"R"}, "quit": {"k", "ctrl+q"}, "nope": {"x"}}}
	r := allowed()
	m, _ := newTestModel(t, r, orgAdmin(), opts, 160, 30)

	selectApp(t, m, "explorer")
	press(m, "r")
	if dialog.Find[*dialog.Confirm](m.dialogs) != nil {
		t.Fatal(`"r" still opens the restart dialog after restart: [R]`)
	}
	press(m, "R")
	if dialog.Find[*dialog.Confirm](m.dialogs) == nil {
		t.Fatal(`"R" does not open the restart dialog`)
	}
	press(m, "esc")

	// "k" moved to quit: up keeps only its arrow, in the keys and the help.
	if diff := cmp.Diff([]string{"up"}, m.keys.Up.Keys()); diff != "" {
		t.Errorf("up keys (-want +got):\n%s", diff)
	}
	if h := m.keys.Up.Help().Key; h != "↑" {
		t.Errorf("up help key = %q, want ↑", h)
	}
	if !key.Matches(keyMsg("k"), m.keys.Quit) || key.Matches(keyMsg("q"), m.keys.Quit) {
		t.Errorf("quit keys = %v, want [k ctrl+q]", m.keys.Quit.Keys())
	}
	before := m.board.Cursor()
	press(m, "up")
	if m.board.Cursor() != before-1 {
		t.Errorf("up arrow no longer moves: cursor %d → %d", before, m.board.Cursor())
	}

	press(m, "?")
	help := plainView(m)
	for _, want := range []string{`\sR\s+rolling restart`, `\sk/ctrl\+q\s+quit`} {
		if !regexp.MustCompile(want).MatchString(help) {
			t.Errorf("help lacks %q:\n%s", want, help)
		}
	}
	if strings.Contains(help, "↑/k") {
		t.Errorf("help still offers k for up:\n%s", help)
	}

	press(m, "esc", "enter")
	if d := plainView(m); !strings.Contains(d, "R restart…") || strings.Contains(d, " r restart") {
		t.Errorf("the detail's hint does not name the rebound restart key:\n%s", d)
	}
}

// An action whose only key is taken disappears from the help.
func TestKeyOverrideTakingTheOnlyKey(t *testing.T) {
	t.Parallel()
	k := keymap.New().WithOverrides(map[string][]string{"sort": {"e"}})
	if k.Env.Enabled() {
		t.Errorf("env keeps %v after sort took e", k.Env.Keys())
	}
	if !key.Matches(keyMsg("e"), k.Sort) || key.Matches(keyMsg("s"), k.Sort) {
		t.Errorf("sort keys = %v", k.Sort.Keys())
	}
	for _, b := range k.ShortHelp() {
		if b.Help().Desc == "env" && b.Enabled() {
			t.Error("the short help still offers env")
		}
	}
}

// Dialogs take their keys from the keymap.Map: a rebinding moves the key and
// the hint, and a board override never takes a dialog's key.
func TestDialogKeysFollowRebinding(t *testing.T) {
	opts := Options{Keys: map[string][]string{"yes": {"o"}, "back": {"x"}, "login": {"ctrl+l"}, "restart": {"y"}}}
	r := allowed()
	m, _ := newTestModel(t, r, orgAdmin(), opts, 160, 30)
	selectApp(t, m, "explorer") // env test: one key confirms
	press(m, "y")               // the board's restart, rebound
	d := dialog.Find[*dialog.Confirm](m.dialogs)
	if d == nil || d.Phase() != dialog.ConfirmAsk {
		t.Fatalf("restart on y: dialog %+v", d)
	}
	if v := dialogText(m); !strings.Contains(v, "o yes · n/enter/x no") {
		t.Errorf("dialog hint does not follow the rebinding:\n%s", v)
	}
	press(m, "y")
	if r.restartCount() != 0 {
		t.Fatal("y still confirms after yes: [o]")
	}
	press(m, "esc")
	if dialog.Find[*dialog.Confirm](m.dialogs) == nil {
		t.Fatal("esc still closes after back: [x]")
	}
	press(m, "o")
	if r.restartCount() != 1 {
		t.Fatalf("o did not confirm: %d restarts", r.restartCount())
	}

	expired := orgAdmin()
	expired.state.Expiry = t0.Add(-time.Minute)
	out, _ := newTestModel(t, r, expired, opts, 160, 30)
	if v := plainView(out); !strings.Contains(v, "ctrl+l to log in") || strings.Contains(v, "L to log in") {
		t.Errorf("the header does not name the rebound login key:\n%s", v)
	}
}
