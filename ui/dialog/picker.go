package ui

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/keymap"
	"github.com/hanzoai/driftboard/ui/styles"
)

// pickItem is one entry of a picker: what it shows and the action it takes.
type pickItem struct {
	label, hint string
	act         action
}

// picker is a small centred list: saved filters ("f"), the action menu
// ("a") and the names ":ns"/":ctx"/":env" choose from. Choosing an item
// answers with the item's action. A list longer than pickerRows scrolls.
type picker struct {
	title  string
	items  []pickItem
	cursor int
	top    int // the first item shown
	rows   int // items shown at once (fit); 0 until laid out: pickerRows
	keys   keymap.Map
}

// pickerRows is the most items a picker shows at once: with its title and
// keys it fits a 24-line terminal.
const pickerRows = 12

// pickerChrome is the picker's lines around its items: borders, title,
// the scroll marks, blank lines and the keys.
const pickerChrome = 9

// fit shows as many items as a terminal h lines high holds, so the overlay
// never cuts the middle of the list, where the cursor may be. Update calls
// it (layoutFrame), View only draws.
func (p *picker) fit(h int) {
	p.rows = max(1, min(pickerRows, h-pickerChrome))
	p.follow()
}

// window is how many items show at once.
func (p *picker) window() int {
	if p.rows > 0 {
		return p.rows
	}
	return pickerRows
}

func (p *picker) busy() bool { return false }

func newSavedPicker(saved map[string]string, current string, keys keymap.Map) *picker {
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
	p.follow()
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
	case k.Paging(msg):
		p.cursor = max(0, min(len(p.items)-1, p.cursor+k.PageStep(msg, p.window())))
	case key.Matches(msg, k.Home):
		p.cursor = 0
	case key.Matches(msg, k.End):
		p.cursor = len(p.items) - 1
	case key.Matches(msg, k.Accept):
		return p.items[p.cursor].act, nil
	}
	p.follow()
	return actNone{}, nil
}

// follow scrolls the window so the cursor is in it.
func (p *picker) follow() {
	n := p.window()
	p.top = max(0, min(p.top, p.cursor, len(p.items)-n))
	if p.cursor >= p.top+n {
		p.top = p.cursor - n + 1
	}
}

func (p *picker) Render(st *styles.Styles, _ int, _ string) string {
	lines := []string{st.DialogTitle.Render(format.Safe(p.title)), ""}
	end := min(len(p.items), p.top+p.window())
	if p.top > 0 {
		lines = append(lines, st.Dim.Render(fmt.Sprintf("  ↑ %d more", p.top)))
	}
	labelWidth := 0 // hints line up after the widest label
	for _, it := range p.items {
		labelWidth = max(labelWidth, format.TextWidth(format.Safe(it.label)))
	}
	for i := p.top; i < end; i++ {
		it := p.items[i]
		pad := strings.Repeat(" ", labelWidth-format.TextWidth(format.Safe(it.label)))
		label := "  " + format.Safe(it.label)
		if i == p.cursor {
			label = "› " + st.Bold.Render(format.Safe(it.label))
		}
		lines = append(lines, label+pad+"  "+st.Dim.Render(format.Safe(it.hint)))
	}
	if end < len(p.items) {
		lines = append(lines, st.Dim.Render(fmt.Sprintf("  ↓ %d more", len(p.items)-end)))
	}
	lines = append(lines, "", st.Dim.Render(p.keys.Accept.Help().Key+" choose · "+p.keys.Back.Help().Key+" close"))
	return st.Dialog.Render(strings.Join(lines, "\n"))
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
		label := "Log in again"
		if m.ident.SwitchesUser {
			label = "Switch the demo's user"
		}
		p.items = append(p.items, pickItem{label: label, hint: m.keys.Login.Help().Key, act: actStartLogin{}})
	}
	return p
}
