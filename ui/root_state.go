package ui

import (
	"context"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/spinner"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/board"
	"github.com/hanzoai/driftboard/ui/detail"
	"github.com/hanzoai/driftboard/ui/dialog"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/keymap"
	"github.com/hanzoai/driftboard/ui/logs"
	"github.com/hanzoai/driftboard/ui/styles"
	"github.com/hanzoai/driftboard/ui/yaml"
)

// Model is the root tea.Model. Its components (ui/board, ui/dialog,
// ui/detail, ui/logs, ui/yaml) are plain structs; the root routes messages
// to them, pushes sizes down and performs the actions they answer with. IO
// happens only in Cmds. Its state is grouped by concern; the groups are
// embedded, so m.board reads as a field of the model.
type Model struct {
	deps     // what the board reads from and acts through
	display  // the terminal: size, background, styles and keys
	screens  // what is on screen: board, query line, detail, help, dialogs
	session  // who is logged in and which restarts are in flight
	activity // spinner, status line, counters
}

type deps struct {
	ctx      context.Context
	cancel   context.CancelFunc
	fleet    Fleet
	identity Identity
	opts     Options
	now      func() time.Time
}

type display struct {
	keys          keymap.Map
	st            styles.Styles
	dark, plain   bool
	width, height int
	// backgroundAsked: the terminal renderer asked for the background as it took the
	// terminal; asked again through bubbletea, the query would wait for its
	// next flush, which on a quick quit comes after input stops, and the
	// reply would land in the shell.
	backgroundAsked bool
	// clipboard writes OSC 52 at once when the terminal renderer draws; nil:
	// tea.SetClipboard, which bubbletea queues for its renderer's next tick
	// (a second away when the terminal renderer draws).
	clipboard func(text string)
}

type screens struct {
	board    board.View
	filter   board.Filter
	screen   screen
	helpFrom screen // the screen help was opened over
	helpTop  int    // the first help line shown: help scrolls where it does not fit
	detail   detail.View
	yaml     yaml.View    // the App as YAML, over the board or the detail
	yamlFrom screen       // the screen the YAML was opened over
	logs     logs.View    // the pods' logs, over the board or the detail
	logsFrom screen       // the screen the logs were opened over
	dialogs  dialog.Stack // the top one has the keys and is drawn
	help     help.Model
	// helpLine is the rendered short help, laid out in Update; it changes
	// only with the width, the styles or the keys.
	helpLine struct {
		width int
		text  string
	}
}

type session struct {
	ident      IdentityState
	identKnown bool // the first identityMsg has arrived
	inflight   map[model.Key]*inflight
	// promotions are the promotions opened or found, by row (promote.go);
	// promoteFollowing: a poll of them is armed or running.
	promotions       map[model.Key]model.Promotion
	promoteFollowing bool
}

type activity struct {
	spin     spinner.Model
	spinning bool
	status   statusLine
	frames   int       // snapshots applied; the coalescing benchmark counts them
	snapAt   time.Time // when the last snapshot was taken (real time, for coalescing)
	frame    frameCache
	clock    clockState // the tick that keeps relative times true (clock.go)
}

// layoutFrame computes what View needs and would otherwise work out while
// drawing: the short help line and the detail's lines and scroll bounds.
func (m *Model) layoutFrame() {
	w, h := m.width, m.height
	if w < minWidth || h < minHeight {
		return
	}
	if p, ok := m.dialogs.Top().(*dialog.Picker); ok {
		p.Fit(h)
	}
	if m.helpLine.width != w || m.helpLine.text == "" {
		m.helpLine.width, m.helpLine.text = w, format.FitLine(m.help.ShortHelpView(m.keys.ShortHelp()), w)
	}
	if m.screen == screenYAML {
		m.yaml.Layout(&m.st, h-3)
	}
	if m.screen == screenLogs {
		m.logs.Layout(&m.st, w-2, h)
	}
	if m.screen != screenDetail {
		return
	}
	m.detail.Layout(&m.st, m.detailFacts(), w, h)
}
