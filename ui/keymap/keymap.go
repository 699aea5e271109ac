package keymap

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Map holds every binding of the board; help is generated from it.
type Map struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding
	HalfPageUp, HalfPageDown, Suspend     key.Binding
	Filter, Back, Sort, NextProblem       key.Binding
	PrevProblem, OnlyDrifted, Env, Saved  key.Binding
	Detail, Actions, Restart, Login, Help key.Binding
	Copy, Open, Quit                      key.Binding
	YAML                                  key.Binding // the App as YAML (ui/yaml)
	Jump                                  key.Binding // ":" prompt (ui's jump.go)
	Mark, MarkAll, RestartSet             key.Binding // marks and their set restart (ui's marks.go, setrestart.go)
	Logs                                  key.Binding // the pods' logs (ui/logs)
	Promote                               key.Binding // promote a release through git (ui's promote.go)
	PromoteMerge, PromoteSync             key.Binding // the row's kept promotion: merge its PR, ask CD to sync it

	// In the log view only (a scope of their own, rebindable): they may
	// reuse board keys, as the view has its keys to itself. Search, n/N,
	// scrolling and back are the board's Filter, NextProblem/PrevProblem,
	// Up/Down/... and Back/Quit.
	LogFollow, LogPrevious, LogWrap, LogPick key.Binding

	// In dialogs (not rebindable: a dialog has the keys to itself, so they
	// never collide with the board's). Back and Quit close; Up/Down move.
	Yes, No, Accept key.Binding
	PromoteTag      key.Binding // the promote dialog: choose another release tag
}

// New is the default key map.
func New() Map {
	return Map{
		Up:           key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:         key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:       key.NewBinding(key.WithKeys("pgup", "ctrl+b"), key.WithHelp("pgup/ctrl+b", "page up")),
		PageDown:     key.NewBinding(key.WithKeys("pgdown", "ctrl+f"), key.WithHelp("pgdn/ctrl+f", "page down")),
		HalfPageUp:   key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u", "half a page up")),
		HalfPageDown: key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "half a page down")),
		Suspend:      key.NewBinding(key.WithKeys("ctrl+z"), key.WithHelp("ctrl+z", "suspend (fg resumes)")),
		Home:         key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/home", "first")),
		End:          key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "last")),
		Filter:       key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Back:         key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back/clear")),
		Sort:         key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort")),
		NextProblem:  key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next problem")),
		PrevProblem:  key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "previous problem")),
		OnlyDrifted:  key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "drifted only")),
		Env:          key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "env")),
		Saved:        key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "saved filters")),
		Detail:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "detail")),
		Actions:      key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "actions")),
		Restart:      key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "restart…")),
		Login:        key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "log in")),
		Help:         key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Copy:         key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy image")),
		Jump:         key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "jump")),
		YAML:         key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yaml")),
		Open:         key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open release")),
		Quit:         key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Mark:         key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "mark")),
		MarkAll:      key.NewBinding(key.WithKeys("*"), key.WithHelp("*", "mark all shown")),
		RestartSet:   key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "restart marked…")),
		Logs:         key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "logs")),
		Promote:      key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "promote…")),
		PromoteMerge: key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "merge promotion…")),
		PromoteSync:  key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "sync promotion…")),
		LogFollow:    key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "follow on/off")),
		LogPrevious:  key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "previous (crashed) instance")),
		LogWrap:      key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "wrap on/off")),
		LogPick:      key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "pick pod/container")),
		Yes:          key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", "yes")),
		No:           key.NewBinding(key.WithKeys("n", "N"), key.WithHelp("n", "no")),
		Accept:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "confirm")),
		PromoteTag:   key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "another tag")),
	}
}

// ShortHelp is the one-line help under the board.
func (k Map) ShortHelp() []key.Binding {
	return []key.Binding{k.Filter, k.Sort, k.NextProblem, k.Detail, k.Restart, k.OnlyDrifted, k.Env, k.Saved, k.Login, k.Help, k.Quit}
}

// FullHelp is the "?" screen, grouped in columns, with longer words than
// the one-line help.
func (k Map) FullHelp() [][]key.Binding {
	long := func(b key.Binding, desc string) key.Binding {
		b.SetHelp(b.Help().Key, desc)
		return b
	}
	k.NextProblem = long(k.NextProblem, "next row that is not ✓")
	k.PrevProblem = long(k.PrevProblem, "previous row that is not ✓")
	k.OnlyDrifted = long(k.OnlyDrifted, "only drifted rows (toggle)")
	k.Env = long(k.Env, "env: all → main → test → dev")
	k.Sort = long(k.Sort, "cycle sort order")
	k.Detail = long(k.Detail, "open the app's detail")
	if k.Restart.Help().Desc == "restart…" {
		k.Restart = long(k.Restart, "rolling restart (asks first)")
	}
	if k.Login.Help().Desc == "log in" {
		k.Login = long(k.Login, "log in again (browser or device code)")
	} else {
		k.Login = long(k.Login, "switch the demo's user")
	}
	k.Actions = long(k.Actions, "action menu for the app")
	k.Copy = long(k.Copy, "copy the image reference (OSC 52)")
	k.Open = long(k.Open, "open the release page on GitHub")
	k.YAML = long(k.YAML, "the App as YAML (read-only)")
	k.Jump = long(k.Jump, "jump: ctx/env/ns NAME, saved filter")
	k.Quit = long(k.Quit, "quit; in a view: back")
	k.Mark = long(k.Mark, "mark row (* all shown)")
	k.RestartSet = long(k.RestartSet, "restart the marked set")
	k.Logs = long(k.Logs, "the pods' logs (read-only)")
	k.Promote = long(k.Promote, "promote a release (asks first)")
	k.PromoteMerge = long(k.PromoteMerge, "merge the promotion's PR")
	k.PromoteSync = long(k.PromoteSync, "CD: sync the merged promotion")
	logKey := func(b key.Binding) key.Binding { return long(b, "logs: "+b.Help().Desc) }
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown, k.Home, k.End},
		{k.Filter, k.Jump, k.Back, k.Sort, k.NextProblem, k.PrevProblem, k.OnlyDrifted, k.Env, k.Saved},
		{k.Detail, k.YAML, k.Logs, k.Actions, k.Restart, k.Mark, k.RestartSet, k.Promote},
		{k.PromoteMerge, k.PromoteSync, k.Copy, k.Open, k.Login, k.Help, k.Suspend, k.Quit},
		{logKey(k.LogFollow), logKey(k.LogPrevious), logKey(k.LogWrap), logKey(k.LogPick)},
	}
}

// WithState enables or disables bindings to match what the board can do now,
// so help never offers a dead key.
func (k Map) WithState(readOnly, canLogin bool) Map {
	k.Restart.SetEnabled(true)
	if readOnly {
		k.Restart.SetHelp(k.Restart.Help().Key, "restart: off (read-only)")
	}
	k.Login.SetEnabled(canLogin)
	// f stays on without saved filters: pressed, it says how to add one.
	return k
}

// WithLogin words L for what the identity's login does: the demo's
// switches users.
func (k Map) WithLogin(switchesUser bool) Map {
	desc := "log in"
	if switchesUser {
		desc = "switch user"
	}
	k.Login.SetHelp(k.Login.Help().Key, desc)
	return k
}

// Paging says whether a key moves a view by pages.
func (k Map) Paging(msg tea.KeyPressMsg) bool {
	return key.Matches(msg, k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown)
}

// PageStep is how far a paging key moves a view whose page is n lines: a
// page for pgup/pgdn and ctrl+b/f, half a page for ctrl+u/d, as in vim and less.
func (k Map) PageStep(msg tea.KeyPressMsg, n int) int {
	n = max(1, n)
	switch {
	case key.Matches(msg, k.HalfPageUp):
		return -max(1, n/2)
	case key.Matches(msg, k.HalfPageDown):
		return max(1, n/2)
	case key.Matches(msg, k.PageUp):
		return -n
	}
	return n
}
