package board

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Update handles what only concerns the table: moving the selection (keys,
// wheel, click), the sort and the quick filters. Actions stay with the root.
func (b View) Update(msg tea.Msg) (View, tea.Cmd) {
	k := b.keys
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Up):
			b.move(-1)
		case key.Matches(msg, k.Down):
			b.move(1)
		case k.Paging(msg):
			b.move(k.PageStep(msg, b.height))
		case key.Matches(msg, k.Home):
			b.MoveTo(0)
		case key.Matches(msg, k.End):
			b.MoveTo(b.RowCount() - 1)
		case key.Matches(msg, k.Sort):
			b.CycleSort()
		case key.Matches(msg, k.OnlyDrifted):
			b.toggleDrifted()
		case key.Matches(msg, k.Env):
			b.cycleEnv()
		}
	case tea.MouseWheelMsg:
		switch msg.Mouse().Button {
		case tea.MouseWheelUp:
			b.move(-3)
		case tea.MouseWheelDown:
			b.move(3)
		}
	case tea.MouseClickMsg:
		if row := msg.Mouse().Y - b.top; row >= 0 && row < b.height {
			b.MoveTo(b.offset + row)
		}
	}
	return b, nil
}

// Handles reports whether Update acts on this key.
func (b *View) Handles(msg tea.KeyPressMsg) bool {
	k := b.keys
	return key.Matches(msg, k.Up, k.Down, k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown, k.Home, k.End, k.Sort, k.OnlyDrifted, k.Env)
}
