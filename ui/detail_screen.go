package ui

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/board"
	"github.com/hanzoai/driftboard/ui/detail"
)

// EventWatcher follows an app's Kubernetes Events while its detail is open.
// The list arrives merged, newest first; the channel closes when ctx ends or
// the watch cannot go on. kube.Fleet implements it with a LIST and a WATCH
// of the namespace's Events.
type EventWatcher interface {
	WatchEvents(ctx context.Context, key model.Key) (<-chan []model.Event, error)
}

func (m *Model) openDetail() tea.Cmd {
	r := m.board.Selected()
	if r == nil {
		return nil
	}
	var read tea.Cmd
	m.detail, read = detail.Open(m.ctx, m.fleet, r, m.keys, m.detail)
	m.screen = screenDetail
	if m.refusal(r) == "" {
		return tea.Batch(checkRestart(m.ctx, m.fleet, r), read)
	}
	return read
}

// detailOpen: the detail is on screen, or under the YAML or the logs opened
// over it.
func (m *Model) detailOpen() bool {
	return m.screen == screenDetail || m.screen == screenYAML && m.yamlFrom == screenDetail ||
		m.screen == screenLogs && m.logsFrom == screenDetail
}

// onDetail hands the detail its message and does what it asks.
func (m *Model) onDetail(msg tea.Msg) tea.Cmd {
	switch msg.(type) {
	case detail.EventsStartedMsg, detail.EventsMsg:
		if !m.detailOpen() {
			return nil
		}
	}
	var cmd tea.Cmd
	var act detail.Action
	m.detail, cmd, act = m.detail.Update(msg)
	key := m.detail.Key()
	switch act {
	case detail.Back:
		m.screen = screenBoard
	case detail.Restart:
		return m.openRestart(m.board.Find(key))
	case detail.YAML:
		return m.openYAML(m.board.Find(key))
	case detail.Logs:
		return m.openLogs(m.board.Find(key))
	case detail.Login:
		return m.startLogin()
	case detail.Help:
		m.openHelp()
	case detail.Reread:
		if r := m.board.Find(key); r != nil && m.screen == screenDetail {
			return m.detail.ReadDigests(r)
		}
	}
	return cmd
}

// followDigests re-reads while the detail is open and its pods changed.
func (m *Model) followDigests() tea.Cmd {
	if m.screen != screenDetail {
		return nil
	}
	return m.detail.Follow(m.board.Find(m.detail.Key()))
}

// detailFacts are what the board knows of the detail's app besides its row.
func (m *Model) detailFacts() detail.Facts {
	r := m.board.Find(m.detail.Key())
	f := detail.Facts{Row: r, Now: m.now()}
	if r == nil {
		return f
	}
	f.Progress, f.MayDo = board.RolloutCell(r, nil), m.mayDo(r)
	if fl := m.inflight[r.Key()]; fl != nil {
		f.Restarting = fl.started
	}
	if p, ok := m.promotions[r.Key()]; ok {
		f.Promotion = &p
	}
	return f
}

// mayDo says in words whether this user may restart this app, and why not.
func (m *Model) mayDo(r *model.AppView) string {
	if why := m.refusal(r); why != "" {
		return "restart: no — " + why
	}
	d := m.detail.Decision()
	switch {
	case d == nil:
		return "restart: checking permission…"
	case d.Allowed:
		via := ""
		if m.ident.Source != "" {
			via = ", login from " + m.ident.Source
		}
		return "restart: yes, as " + m.user() + " (" + m.ident.Principal.RoleName() + via + ") — press " + m.keys.Restart.Help().Key
	}
	return "restart: no — " + d.Reason
}

func (m *Model) renderDetail(sb *strings.Builder, w, h int) {
	sb.WriteString(m.titleLine(w))
	sb.WriteByte('\n')
	m.detail.Render(sb, w, h)
	sb.WriteString(m.statusBar(w))
	sb.WriteByte('\n')
	sb.WriteString(m.detail.Hint(&m.st, w, h))
}
