package dialog

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

// PickItem is one entry of a picker: what it shows and the action it takes.
type PickItem struct {
	Label, Hint string
	Act         Action
}

// Picker is a small centred list: saved filters ("f"), the action menu
// ("a") and the names ":ns"/":ctx"/":env" choose from. Choosing an item
// answers with the item's action. A list longer than pickerRows scrolls.
type Picker struct {
	title  string
	items  []PickItem
	cursor int
	top    int // the first item shown
	rows   int // items shown at once (fit); 0 until laid out: pickerRows
	keys   keymap.Map
}

// NewPicker lists items under title, the cursor on item cursor.
func NewPicker(title string, items []PickItem, cursor int, keys keymap.Map) *Picker {
	p := &Picker{title: title, items: items, cursor: max(0, min(cursor, len(items)-1)), keys: keys}
	p.follow()
	return p
}

// Selected is the item under the cursor and its index.
func (p *Picker) Selected() (PickItem, int) {
	if len(p.items) == 0 {
		return PickItem{}, -1
	}
	return p.items[p.cursor], p.cursor
}

// pickerRows is the most items a picker shows at once: with its title and
// keys it fits a 24-line terminal.
const pickerRows = 12

// pickerChrome is the picker's lines around its items: borders, title,
// the scroll marks, blank lines and the keys.
const pickerChrome = 9

// Fit shows as many items as a terminal h lines high holds, so the overlay
// never cuts the middle of the list, where the cursor may be. The root's
// Update calls it (layoutFrame), View only draws.
func (p *Picker) Fit(h int) {
	p.rows = max(1, min(pickerRows, h-pickerChrome))
	p.follow()
}

// window is how many items show at once.
func (p *Picker) window() int {
	if p.rows > 0 {
		return p.rows
	}
	return pickerRows
}

// Busy: a picker waits on nothing.
func (p *Picker) Busy() bool { return false }

// NewSavedPicker offers the saved filters ("f"), the cursor on the one
// applied.
func NewSavedPicker(saved map[string]string, current string, keys keymap.Map) *Picker {
	p := &Picker{title: "Saved filters", keys: keys}
	names := make([]string, 0, len(saved))
	for n := range saved {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		p.items = append(p.items, PickItem{Label: n, Hint: saved[n], Act: ApplyFilter{Query: saved[n]}})
		if saved[n] == current {
			p.cursor = i
		}
	}
	p.follow()
	return p
}

// Update moves the cursor; accept answers with the item's action.
func (p *Picker) Update(msg tea.KeyPressMsg) (Action, tea.Cmd) {
	k := &p.keys
	switch {
	case key.Matches(msg, k.Back, k.Quit):
		return Close{}, nil
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
		return p.items[p.cursor].Act, nil
	}
	p.follow()
	return None{}, nil
}

// follow scrolls the window so the cursor is in it.
func (p *Picker) follow() {
	n := p.window()
	p.top = max(0, min(p.top, p.cursor, len(p.items)-n))
	if p.cursor >= p.top+n {
		p.top = p.cursor - n + 1
	}
}

// Render is the list box.
func (p *Picker) Render(st *styles.Styles, _ int, _ string) string {
	lines := []string{st.DialogTitle.Render(format.Safe(p.title)), ""}
	end := min(len(p.items), p.top+p.window())
	if p.top > 0 {
		lines = append(lines, st.Dim.Render(fmt.Sprintf("  ↑ %d more", p.top)))
	}
	labelWidth := 0 // hints line up after the widest label
	for _, it := range p.items {
		labelWidth = max(labelWidth, format.TextWidth(format.Safe(it.Label)))
	}
	for i := p.top; i < end; i++ {
		it := p.items[i]
		pad := strings.Repeat(" ", labelWidth-format.TextWidth(format.Safe(it.Label)))
		label := "  " + format.Safe(it.Label)
		if i == p.cursor {
			label = "› " + st.Bold.Render(format.Safe(it.Label))
		}
		lines = append(lines, label+pad+"  "+st.Dim.Render(format.Safe(it.Hint)))
	}
	if end < len(p.items) {
		lines = append(lines, st.Dim.Render(fmt.Sprintf("  ↓ %d more", len(p.items)-end)))
	}
	lines = append(lines, "", st.Dim.Render(p.keys.Accept.Help().Key+" choose · "+p.keys.Back.Help().Key+" close"))
	return st.Dialog.Render(strings.Join(lines, "\n"))
}
