package yaml

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/keymap"
	"github.com/hanzoai/driftboard/ui/styles"
)

type reader struct {
	text string
	err  error
}

func (r reader) AppYAML(context.Context, model.Key) (string, error) { return r.text, r.err }

func opened(t *testing.T, rd Reader, prev View) (View, Msg) {
	t.Helper()
	v, cmd := Open(context.Background(), rd, model.Key{Cluster: "c", Namespace: "ns", Name: "web"}, keymap.New(), prev)
	msg, ok := cmd().(Msg)
	if !ok {
		t.Fatal("Open's Cmd did not answer with a Msg")
	}
	return v, msg
}

// TestLayoutSanitisesEveryLine: each line is sanitised where it is laid
// out, not only by the frame's guard.
func TestLayoutSanitisesEveryLine(t *testing.T) {
	v, msg := opened(t, reader{text: "kind: App\nnote: \"evil\x1b[2J\x1b]52;c;cHduZWQ=\x07 here\"\n"}, View{})
	v, _ = v.Update(msg)
	st := styles.New(true, true)
	v.Layout(&st, 10)
	laid := strings.Join(v.lines, "\n")
	if strings.Contains(laid, "\x1b]52") || strings.Contains(laid, "\x07") || strings.Contains(laid, "\x1b[2J") {
		t.Errorf("a YAML line kept its control sequences: %q", laid)
	}
	if !strings.Contains(laid, "kind: App") || !strings.Contains(laid, `note: "evil`) {
		t.Errorf("the YAML is not shown: %q", laid)
	}
}

// TestStaleAnswersAndKeys: an answer for the view this one replaced is
// ignored; back keys and help are asked of the board, scrolling is kept.
func TestStaleAnswersAndKeys(t *testing.T) {
	first, stale := opened(t, reader{text: "old: true"}, View{})
	v, _ := opened(t, reader{err: errors.New("boom")}, first)
	v, _ = v.Update(stale)
	if !v.loading || v.text != "" {
		t.Fatalf("the replaced view's answer was taken: loading %v, text %q", v.loading, v.text)
	}
	v = View{keys: keymap.New(), lines: make([]string, 30), height: 10}
	for _, c := range []struct {
		key    string
		act    Action
		offset int
	}{{"j", None, 1}, {"G", None, 20}, {"k", None, 19}, {"g", None, 0}, {"esc", Back, 0}, {"q", Back, 0}, {"y", Back, 0}, {"?", Help, 0}} {
		var act Action
		v, act = v.Update(press(c.key))
		if act != c.act || v.offset != c.offset {
			t.Errorf("%q: action %d offset %d, want %d, %d", c.key, act, v.offset, c.act, c.offset)
		}
	}
}

func press(k string) tea.KeyPressMsg {
	switch k {
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	}
	return tea.KeyPressMsg{Code: rune(k[0]), Text: k}
}
