// Package yaml is the read-only YAML of one App, a component of the board:
// it reads the App once through its Reader, scrolls, and tells the board
// by a typed Action when a key asks to leave it or to open help.
package yaml

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/keymap"
	"github.com/hanzoai/driftboard/ui/styles"
)

// Reader reads one App's custom resource as YAML on demand (kube.Fleet GETs
// it). The text is the cluster's and is sanitised line by line before it is
// drawn.
type Reader interface {
	AppYAML(ctx context.Context, key model.Key) (string, error)
}

// timeout bounds one GET of the App.
const timeout = 15 * time.Second

// View is the read-only YAML of one App.
type View struct {
	keys    keymap.Map
	key     model.Key
	seq     uint64
	loading bool
	text    string
	err     error
	lines   []string // laid out by Layout
	offset  int
	height  int
}

// Msg is a Reader's answer; seq tells a stale one from the current.
type Msg struct {
	key  model.Key
	seq  uint64
	text string
	err  error
}

// Action is what a key asks of the board besides scrolling.
type Action int

const (
	None Action = iota // nothing besides what the view did itself
	Back               // leave the view for where it was opened from
	Help               // open help over it
)

// Open is the view of key's App, read now through rd; prev is the view it
// replaces, whose answers still on their way are then stale.
func Open(ctx context.Context, rd Reader, k model.Key, keys keymap.Map, prev View) (View, tea.Cmd) {
	v := View{keys: keys, key: k, seq: prev.seq + 1, loading: true}
	seq := v.seq
	return v, func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		text, err := rd.AppYAML(ctx, k)
		return Msg{key: k, seq: seq, text: text, err: err}
	}
}

// Key is the App shown.
func (v View) Key() model.Key { return v.key }

// Update takes the Reader's answer and the view's keys.
func (v View) Update(msg tea.Msg) (View, Action) {
	switch msg := msg.(type) {
	case Msg:
		if msg.key == v.key && msg.seq == v.seq {
			v.loading, v.text, v.err = false, msg.text, msg.err
		}
	case tea.KeyPressMsg:
		return v.onKey(msg)
	}
	return v, None
}

func (v View) onKey(msg tea.KeyPressMsg) (View, Action) {
	k := v.keys
	switch {
	case key.Matches(msg, k.Back, k.Quit, k.YAML), msg.String() == "backspace":
		return v, Back // q goes back, as in k9s and less
	case key.Matches(msg, k.Up):
		v.scroll(-1)
	case key.Matches(msg, k.Down):
		v.scroll(1)
	case k.Paging(msg):
		v.scroll(k.PageStep(msg, v.height))
	case key.Matches(msg, k.Home):
		v.offset = 0
	case key.Matches(msg, k.End):
		v.scroll(len(v.lines))
	case key.Matches(msg, k.Help):
		return v, Help
	}
	return v, None
}

func (v *View) scroll(delta int) {
	v.offset = max(0, min(v.offset+delta, len(v.lines)-v.height))
}

// Layout turns the answer into lines for a body of the given height, every
// one through format.Safe: the YAML is the cluster's text.
func (v *View) Layout(st *styles.Styles, body int) {
	v.height = body
	head := st.Title.Render("App "+format.Safe(v.key.Namespace+"/"+v.key.Name)) +
		st.Dim.Render(" · cluster "+format.Safe(format.OrDash(v.key.Cluster))+" · YAML")
	v.lines = []string{head, ""}
	switch {
	case v.loading:
		v.lines = append(v.lines, st.Dim.Render("reading the App…"))
	case model.IsNotAvailable(v.err):
		v.lines = append(v.lines, st.Dim.Render(format.Safe(v.err.Error())))
	case v.err != nil:
		v.lines = append(v.lines, st.ErrText.Render("could not read the App: ")+format.Safe(v.err.Error()))
	default:
		for _, l := range strings.Split(strings.TrimRight(v.text, "\n"), "\n") {
			v.lines = append(v.lines, format.Safe(l))
		}
	}
	v.offset = max(0, min(v.offset, len(v.lines)-body))
}

// RenderBody writes body lines of the YAML, each w columns wide.
func (v View) RenderBody(sb *strings.Builder, w, body int) {
	for i := range body {
		line := ""
		if j := v.offset + i; j < len(v.lines) {
			line = " " + v.lines[j]
		}
		sb.WriteString(format.FitLine(line, w))
		sb.WriteByte('\n')
	}
}

// Hint is the view's key line, w columns wide, under a body of that height.
func (v View) Hint(st *styles.Styles, w, body int) string {
	k := v.keys
	hint := k.Quit.Help().Key + "/" + k.Back.Help().Key + " back · ↑/↓ scroll · read-only · " + k.Help.Help().Key + " help"
	if len(v.lines) > body {
		hint += fmt.Sprintf(" · %d/%d", v.offset+1, len(v.lines)-body+1)
	}
	return format.FitLine(st.Dim.Render(hint), w)
}
