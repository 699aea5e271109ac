package dialog

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/keymap"
	"github.com/hanzoai/driftboard/ui/styles"
)

func press(d Dialog, keys ...string) Action {
	var act Action = None{}
	for _, k := range keys {
		msg := tea.KeyPressMsg{Code: rune(k[0]), Text: k}
		switch k {
		case "enter":
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		case "esc":
			msg = tea.KeyPressMsg{Code: tea.KeyEscape}
		case "end":
			msg = tea.KeyPressMsg{Code: tea.KeyEnd}
		case "backspace":
			msg = tea.KeyPressMsg{Code: tea.KeyBackspace}
		}
		act, _ = d.Update(msg)
	}
	return act
}

func row(ns, app string, env model.Env) *model.AppView {
	return &model.AppView{Cluster: "c", Namespace: ns, App: app, Env: env}
}

// The stack: the top has the keys, a dialog leaves from wherever it is,
// Find answers the nearest of a type.
func TestStack(t *testing.T) {
	keys, st := keymap.New(), styles.New(true, true)
	var s Stack
	if s.Top() != nil || Find[*Confirm](s) != nil {
		t.Fatal("an empty stack has a dialog")
	}
	c := NewConfirm(row("ns", "web", model.EnvDev), "ana", &st, keys)
	p := NewPicker("Saved filters", nil, 0, keys)
	s.Push(c)
	s.Push(p)
	if s.Top() != p || Find[*Confirm](s) != c {
		t.Fatalf("top %T, confirm %v", s.Top(), Find[*Confirm](s))
	}
	c.Check()
	if !s.Busy() {
		t.Error("a confirmation checking is not busy")
	}
	s.Remove(c)
	if len(s) != 1 || s.Top() != p || s.Busy() {
		t.Fatalf("after removing the confirmation: %v", s)
	}
}

// A reopened fleet closes the restart dialogs that sent nothing and keeps
// the one sending and every other dialog.
func TestCloseUnsentRestarts(t *testing.T) {
	keys, st := keymap.New(), styles.New(true, true)
	asking := NewConfirm(row("ns", "a", model.EnvDev), "ana", &st, keys)
	asking.Check()
	sending := NewConfirm(row("ns", "b", model.EnvDev), "ana", &st, keys)
	sending.Send()
	set := NewSetRestart([]*model.AppView{row("ns", "c", model.EnvDev)}, "ana", 2, &st, keys)
	picker := NewPicker("Actions", nil, 0, keys)
	s := Stack{asking, sending, set, picker}
	if !s.CloseUnsentRestarts() {
		t.Fatal("nothing closed")
	}
	if len(s) != 2 || s[0] != sending || s[1] != picker {
		t.Fatalf("left %v; want the one sending and the picker", s)
	}
	if s.CloseUnsentRestarts() {
		t.Error("closed again with nothing unsent")
	}
}

// A picker scrolls with its cursor and answers with the chosen item's action.
func TestPickerScrollsAndChooses(t *testing.T) {
	keys, st := keymap.New(), styles.New(true, true)
	var items []PickItem
	for _, n := range strings.Fields("a b c d e f g h i j k l m n o") {
		items = append(items, PickItem{Label: n, Act: ApplyFilter{Query: "namespace:" + n}})
	}
	p := NewPicker("Namespaces", items, 0, keys)
	p.Fit(14) // 5 rows
	if box := ansi.Strip(p.Render(&st, 80, "")); !strings.Contains(box, "↓ 10 more") {
		t.Fatalf("a 14-line terminal shows 5 of 15:\n%s", box)
	}
	press(p, "end")
	if it, i := p.Selected(); it.Label != "o" || i != 14 {
		t.Fatalf("end: on %q (%d)", it.Label, i)
	}
	if box := ansi.Strip(p.Render(&st, 80, "")); !strings.Contains(box, "↑ 10 more") || !strings.Contains(box, "› o") {
		t.Fatalf("end: the last shown:\n%s", box)
	}
	if act := press(p, "enter"); act != (ApplyFilter{Query: "namespace:o"}) {
		t.Fatalf("enter: %#v", act)
	}
	if act := press(p, "esc"); act != (Close{}) {
		t.Fatalf("esc: %#v", act)
	}
}

// The jump prompt: "ns NAME" is a jump, "q" quits, a saved filter's name
// applies it, and nonsense says why and stays.
func TestJumpResolves(t *testing.T) {
	keys, st := keymap.New(), styles.New(true, true)
	saved := map[string]string{"mine": "team:core"}
	for _, c := range []struct {
		typed string
		want  Action
	}{
		{"ns hanzo", ApplyFilter{Query: "namespace:hanzo", Jump: true}},
		{"env test", ApplyFilter{Jump: true, Env: model.EnvTest}},
		{"mine", ApplyFilter{Query: "team:core"}},
		{"q", Quit{}},
		{"nope", None{}},
	} {
		j, _ := NewJump(nil, saved, "", &st, keys)
		if act := press(j, append(strings.Split(c.typed, ""), "enter")...); act != c.want {
			t.Errorf("%q: %#v, want %#v", c.typed, act, c.want)
		}
	}
}
