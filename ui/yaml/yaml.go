package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
)

// YAMLReader reads one App's custom resource as YAML on demand (kube.Fleet
// GETs it). The text is the
// cluster's and is sanitised line by line before it is drawn.
type YAMLReader interface {
	AppYAML(ctx context.Context, key model.Key) (string, error)
}

// yamlTimeout bounds one GET of the App.
const yamlTimeout = 15 * time.Second

// yamlView is the read-only YAML of one App, over the board or the detail
// it was opened from; back returns there.
type yamlView struct {
	key     model.Key
	from    screen
	seq     uint64
	loading bool
	text    string
	err     error
	lines   []string // laid out in Update
	offset  int
	height  int
}

// yamlMsg is a YAMLReader's answer; seq tells a stale one from the current.
type yamlMsg struct {
	key  model.Key
	seq  uint64
	text string
	err  error
}

// openYAML shows row r's App as YAML, read now (nil row: nothing to show).
func (m *Model) openYAML(r *model.AppView) tea.Cmd {
	if r == nil {
		return nil
	}
	m.yaml = yamlView{key: r.Key(), from: m.screen, seq: m.yaml.seq + 1}
	m.screen = screenYAML
	rd := m.fleet
	m.yaml.loading = true
	ctx, k, seq := m.ctx, m.yaml.key, m.yaml.seq
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, yamlTimeout)
		defer cancel()
		text, err := rd.AppYAML(ctx, k)
		return yamlMsg{key: k, seq: seq, text: text, err: err}
	}
}

func (m *Model) onYAML(msg yamlMsg) {
	if msg.key != m.yaml.key || msg.seq != m.yaml.seq {
		return
	}
	m.yaml.loading, m.yaml.text, m.yaml.err = false, msg.text, msg.err
}

func (m *Model) yamlKey(msg tea.KeyPressMsg) tea.Cmd {
	k, y := m.keys, &m.yaml
	switch {
	case key.Matches(msg, k.Back, k.Quit, k.YAML), msg.String() == "backspace":
		m.screen = y.from // q goes back, as in k9s and less
	case key.Matches(msg, k.Up):
		y.scroll(-1)
	case key.Matches(msg, k.Down):
		y.scroll(1)
	case k.Paging(msg):
		y.scroll(k.PageStep(msg, y.height))
	case key.Matches(msg, k.Home):
		y.offset = 0
	case key.Matches(msg, k.End):
		y.scroll(len(y.lines))
	case key.Matches(msg, k.Help):
		m.openHelp()
	}
	return nil
}

func (y *yamlView) scroll(delta int) {
	y.offset = max(0, min(y.offset+delta, len(y.lines)-y.height))
}

// layoutYAML turns the answer into lines, every one through safe: the
// YAML is the cluster's text.
func (m *Model) layoutYAML(body int) {
	y, st := &m.yaml, &m.st
	y.height = body
	head := st.Title.Render("App "+format.Safe(y.key.Namespace+"/"+y.key.Name)) + st.Dim.Render(" · cluster "+format.Safe(format.OrDash(y.key.Cluster))+" · YAML")
	y.lines = []string{head, ""}
	switch {
	case y.loading:
		y.lines = append(y.lines, st.Dim.Render("reading the App…"))
	case model.IsNotAvailable(y.err):
		y.lines = append(y.lines, st.Dim.Render(format.Safe(y.err.Error())))
	case y.err != nil:
		y.lines = append(y.lines, st.ErrText.Render("could not read the App: ")+format.Safe(y.err.Error()))
	default:
		for _, l := range strings.Split(strings.TrimRight(y.text, "\n"), "\n") {
			y.lines = append(y.lines, format.Safe(l))
		}
	}
	y.offset = max(0, min(y.offset, len(y.lines)-body))
}

func (m *Model) renderYAML(sb *strings.Builder, w, h int) {
	sb.WriteString(m.titleLine(w))
	sb.WriteByte('\n')
	body := h - 3
	y := &m.yaml
	for i := 0; i < body; i++ {
		line := ""
		if j := y.offset + i; j < len(y.lines) {
			line = " " + y.lines[j]
		}
		sb.WriteString(format.FitLine(line, w))
		sb.WriteByte('\n')
	}
	sb.WriteString(m.statusBar(w))
	sb.WriteByte('\n')
	k := m.keys
	hint := k.Quit.Help().Key + "/" + k.Back.Help().Key + " back · ↑/↓ scroll · read-only · " + k.Help.Help().Key + " help"
	if len(y.lines) > body {
		hint += fmt.Sprintf(" · %d/%d", y.offset+1, len(y.lines)-body+1)
	}
	sb.WriteString(format.FitLine(m.st.Dim.Render(hint), w))
}
