package ui

import (
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// pickItem is one entry of a picker: what it shows and what it stands for.
type pickItem struct {
	label, hint, value string
}

// picker is a small centred list: saved filters ("f") and the action menu
// ("a"). The root reads chosen/closed after each update.
type picker struct {
	kind   string // "saved" or "actions"
	title  string
	items  []pickItem
	cursor int
	chosen *pickItem
	closed bool
}

func newSavedPicker(saved map[string]string, current string) *picker {
	p := &picker{kind: "saved", title: "Saved filters"}
	names := make([]string, 0, len(saved))
	for n := range saved {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		p.items = append(p.items, pickItem{label: n, hint: saved[n], value: saved[n]})
		if saved[n] == current {
			p.cursor = i
		}
	}
	return p
}

func (p picker) Update(msg tea.Msg) (picker, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || len(p.items) == 0 {
		return p, nil
	}
	switch k.String() {
	case "up", "k":
		p.cursor = max(0, p.cursor-1)
	case "down", "j":
		p.cursor = min(len(p.items)-1, p.cursor+1)
	case "enter":
		it := p.items[p.cursor]
		p.chosen, p.closed = &it, true
	case "esc", "q":
		p.closed = true
	}
	return p, nil
}

func (p *picker) Render(st *styles) string {
	lines := []string{st.dialogTitle.Render(safe(p.title)), ""}
	for i, it := range p.items {
		label := "  " + safe(it.label)
		if i == p.cursor {
			label = "› " + st.bold.Render(safe(it.label))
		}
		lines = append(lines, label+"  "+st.dim.Render(safe(it.hint)))
	}
	lines = append(lines, "", st.dim.Render("enter choose · esc close"))
	return st.dialog.Render(strings.Join(lines, "\n"))
}

// actionMenu lists what can be done to the selected app, with the reason
// when an action is off.
func (m *Model) actionMenu() *picker {
	p := &picker{kind: "actions", title: "Actions"}
	r := m.board.selected()
	if r == nil {
		return nil
	}
	p.title = "Actions on " + r.Namespace + "/" + r.App
	restart := m.keys.Restart.Help().Key + " · asks first"
	if why := m.refusal(r); why != "" {
		restart = m.keys.Restart.Help().Key + " · not allowed: " + why
	}
	p.items = append(p.items,
		pickItem{label: "Rolling restart…", hint: restart, value: "restart"},
		pickItem{label: "Open detail", hint: m.keys.Detail.Help().Key, value: "detail"},
	)
	if m.identity != nil {
		p.items = append(p.items, pickItem{label: "Log in again", hint: m.keys.Login.Help().Key, value: "login"})
	}
	return p
}

func (m *Model) pickerKey(msg tea.KeyPressMsg) tea.Cmd {
	*m.picker, _ = m.picker.Update(msg)
	p := m.picker
	if !p.closed {
		return nil
	}
	m.picker = nil
	if p.chosen == nil {
		return nil
	}
	switch p.kind {
	case "actions":
		switch p.chosen.value {
		case "restart":
			return m.openRestart(m.board.selected())
		case "detail":
			return m.openDetail()
		case "login":
			return m.startLogin()
		}
	case "saved":
		m.filter.set(p.chosen.value)
		if m.filter.err != nil {
			m.status = statusLine{text: "saved filter is invalid: " + m.filter.err.Error(), bad: true}
			m.filter.close(true)
			return nil
		}
		m.applyFilter()
		m.status = statusLine{text: "filter: " + p.chosen.value}
	}
	return nil
}
