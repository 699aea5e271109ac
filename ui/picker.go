package ui

import (
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// pickItem is one entry of a picker: what it shows and the action it takes.
type pickItem struct {
	label, hint string
	act         action
}

// picker is a small centred list: saved filters ("f") and the action menu
// ("a"). Choosing an item answers with the item's action.
type picker struct {
	title  string
	items  []pickItem
	cursor int
	keys   keyMap
}

func (p *picker) busy() bool { return false }

func newSavedPicker(saved map[string]string, current string, keys keyMap) *picker {
	p := &picker{title: "Saved filters", keys: keys}
	names := make([]string, 0, len(saved))
	for n := range saved {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		p.items = append(p.items, pickItem{label: n, hint: saved[n], act: actApplyFilter{query: saved[n]}})
		if saved[n] == current {
			p.cursor = i
		}
	}
	return p
}

func (p *picker) Update(msg tea.KeyPressMsg) (action, tea.Cmd) {
	k := &p.keys
	switch {
	case key.Matches(msg, k.Back, k.Quit):
		return actClose{}, nil
	case len(p.items) == 0:
	case key.Matches(msg, k.Up):
		p.cursor = max(0, p.cursor-1)
	case key.Matches(msg, k.Down):
		p.cursor = min(len(p.items)-1, p.cursor+1)
	case key.Matches(msg, k.Accept):
		return p.items[p.cursor].act, nil
	}
	return actNone{}, nil
}

func (p *picker) Render(st *styles, _ int, _ string) string {
	lines := []string{st.dialogTitle.Render(safe(p.title)), ""}
	for i, it := range p.items {
		label := "  " + safe(it.label)
		if i == p.cursor {
			label = "› " + st.bold.Render(safe(it.label))
		}
		lines = append(lines, label+"  "+st.dim.Render(safe(it.hint)))
	}
	lines = append(lines, "", st.dim.Render(p.keys.Accept.Help().Key+" choose · "+p.keys.Back.Help().Key+" close"))
	return st.dialog.Render(strings.Join(lines, "\n"))
}

// actionMenu lists what can be done to the selected app, with the reason
// when an action is off.
func (m *Model) actionMenu() *picker {
	p := &picker{title: "Actions", keys: m.keys}
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
		pickItem{label: "Rolling restart…", hint: restart, act: actOpenRestart{}},
		pickItem{label: "Open detail", hint: m.keys.Detail.Help().Key, act: actOpenDetail{}},
		pickItem{label: "Logs of its pods", hint: m.keys.Logs.Help().Key + " · read-only", act: actOpenLogs{}},
	)
	if m.identity != nil {
		p.items = append(p.items, pickItem{label: "Log in again", hint: m.keys.Login.Help().Key, act: actStartLogin{}})
	}
	return p
}
