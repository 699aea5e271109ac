package ui

import (
	"cmp"
	"context"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
	"github.com/hanzoai/driftboard/ui/board"
	"github.com/hanzoai/driftboard/ui/detail"
	"github.com/hanzoai/driftboard/ui/dialog"
	"github.com/hanzoai/driftboard/ui/keymap"
	"github.com/hanzoai/driftboard/ui/logs"
	"github.com/hanzoai/driftboard/ui/styles"
	"github.com/hanzoai/driftboard/ui/yaml"
)

// screen is what fills the body: the table, one app's detail, or full help.
type screen int

const (
	screenBoard screen = iota
	screenDetail
	screenHelp
	screenYAML // one App as YAML (ui/yaml)
	screenLogs // the pods' logs (ui/logs)
)

// statusLine is the last message for the user, in words. A plain notice
// goes by itself after noticeLife (status.go); an error, or a line the user
// must act on (keep), stays until the next message or esc.
type statusLine struct {
	text  string
	bad   bool
	keep  bool
	shown time.Time // when it first showed; Update stamps it
}

func newModel(ctx context.Context, f Fleet, id Identity, opts Options) *Model {
	if f == nil {
		f = newEmptyFleet()
	}
	ctx, cancel := context.WithCancel(ctx)
	m := &Model{
		deps:     deps{ctx: ctx, cancel: cancel, fleet: f, identity: id, opts: opts, now: opts.Now},
		display:  display{dark: true, plain: opts.NoColor},
		screens:  screens{board: board.New(keymap.Map{}), help: help.New()},
		session:  session{inflight: map[model.Key]*inflight{}},
		activity: activity{spin: spinner.New(spinner.WithSpinner(spinner.MiniDot))},
	}
	if m.now == nil {
		m.now = time.Now
	}
	if opts.DarkBackground != nil {
		m.dark = *opts.DarkBackground
	}
	m.keys = keymap.New().WithOverrides(opts.Keys).WithState(opts.ReadOnly, id != nil)
	m.board.SetKeys(m.keys)
	m.restyle()
	m.filter = board.NewFilter(&m.st)
	if opts.InitialQuery != "" {
		m.filter.Set(opts.InitialQuery)
		if m.filter.Err() != nil {
			m.status = statusLine{text: "initial filter ignored: " + m.filter.Err().Error(), bad: true}
			m.filter.Set("")
		}
		m.applyFilter()
	}
	return m
}

func (m *Model) restyle() {
	m.st = styles.New(m.dark, m.plain)
	m.help.Styles = m.st.Help
	m.helpLine.text = ""
	m.filter.SetStyles(&m.st)
}

// Init takes the first snapshot, asks the terminal for its background and
// reads the identity.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{takeSnapshot(m.fleet), findPromotions(m.ctx, m.fleet)}
	if m.opts.DarkBackground == nil && !m.backgroundAsked {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	if m.identity != nil {
		cmds = append(cmds, readIdentity(m.identity))
	}
	return tea.Batch(cmds...)
}

// Update routes one message, then lays the frame out, so View only draws.
// No IO happens here: Cmds do it.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	wasPlain := m.plainBoard()
	cmd := m.route(msg)
	m.ageStatus(m.now())
	m.layoutFrame()
	if due := m.afterUpdate(msg, wasPlain); due != nil {
		cmd = tea.Batch(cmd, due)
	}
	if tick := m.armClock(); tick != nil {
		cmd = tea.Batch(cmd, tick)
	}
	return m, cmd
}

func (m *Model) route(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return nil
	case tea.BackgroundColorMsg:
		if m.opts.DarkBackground == nil && msg.IsDark() != m.dark {
			m.dark = msg.IsDark()
			m.restyle()
		}
		return nil
	case tea.ColorProfileMsg:
		if plain := m.opts.NoColor || msg.Profile <= colorprofile.ASCII; plain != m.plain {
			m.plain = plain
			m.restyle()
		}
		return nil
	case snapshotMsg:
		m.snapAt = time.Now() // it was taken just now: the next wait counts from here
		return m.onSnapshot(msg.snap)
	case spinner.TickMsg:
		if !m.busy() {
			m.spinning = false
			return nil
		}
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		return cmd
	case switchedMsg:
		m.ident, m.identKnown = msg.state, true
		m.status = statusLine{text: "switched the demo's user to " + cmp.Or(m.user(), "nobody")}
		return expiryTimer(m.ident.Expiry, m.now())
	case identityMsg:
		m.ident, m.identKnown = msg.state, true
		m.keys = m.keys.WithLogin(m.ident.SwitchesUser)
		m.helpLine.text = "" // the short help names L's words
		return expiryTimer(m.ident.Expiry, m.now())
	case clockTickMsg:
		m.onClockTick(msg)
		return nil
	case expiryMsg:
		if m.identity != nil {
			return readIdentity(m.identity)
		}
		return nil
	case checkedMsg:
		return m.onChecked(msg)
	case restartedMsg:
		return m.onRestarted(msg)
	case promoteMsg:
		return m.onPromote(msg)
	case followedMsg:
		return m.onFollowed(msg)
	case dialog.SetCheckedMsg, dialog.SetProgressMsg, dialog.SetDoneMsg:
		return m.onSetMsg(msg)
	case yaml.Msg:
		m.yaml, _ = m.yaml.Update(msg)
		return nil
	case logs.PodsMsg, logs.OpenedMsg, logs.BatchMsg:
		return m.onLogs(msg)
	case detail.DigestsMsg, detail.EventsStartedMsg, detail.EventsMsg:
		return m.onDetail(msg)
	case openedMsg:
		m.onOpened(msg)
		return nil
	case loginPromptMsg, loginDoneMsg, loginChanClosed:
		return m.onLogin(msg)
	case tea.MouseWheelMsg, tea.MouseClickMsg:
		return m.onMouse(msg)
	case tea.KeyPressMsg:
		return m.onKey(msg)
	case tea.PasteMsg:
		if m.filter.Active() {
			var cmd tea.Cmd
			m.filter, cmd = m.filter.Update(msg)
			m.applyFilter()
			return cmd
		}
	}
	return nil
}

// onSnapshot applies a snapshot, follows restarts in flight and re-arms the
// wait for the next change.
func (m *Model) onSnapshot(s *store.Snapshot) tea.Cmd {
	if s == nil {
		return waitForChange(m.ctx, m.fleet, m.snapAt, m.snapDelay())
	}
	replaced := m.board.Snap() != nil && m.board.Snap().Origin() != s.Origin()
	m.board.SetSnapshot(s) // a row that left the fleet loses its mark
	m.frames++
	if replaced && m.dialogs.CloseUnsentRestarts() {
		m.status = statusLine{text: dialog.FleetReplacedReason, bad: true}
	}
	for k, f := range m.inflight {
		f.observe(m.board.Find(k))
	}
	return tea.Batch(waitForChange(m.ctx, m.fleet, m.snapAt, m.snapDelay()), m.startSpinner(), m.followDigests())
}

// snapDelay is how far apart snapshots are taken: at the syncing pace while
// a cluster's first lists stream and rows are already shown (the first
// rows come at the usual pace).
func (m *Model) snapDelay() time.Duration {
	if s := m.board.Snap(); s != nil && s.Len() > 0 && syncing(s) {
		return syncingDelay
	}
	return coalesceDelay
}

func syncing(s *store.Snapshot) bool {
	for _, c := range s.Clusters {
		if c.Phase == model.ConnSyncing {
			return true
		}
	}
	return false
}

// busy is true while something is in progress; only then does the spinner tick.
func (m *Model) busy() bool {
	if len(m.inflight) > 0 || m.dialogs.Busy() {
		return true
	}
	return m.board.Snap() != nil && syncing(m.board.Snap())
}

func (m *Model) startSpinner() tea.Cmd {
	if m.spinning || !m.busy() {
		return nil
	}
	m.spinning = true
	return m.spin.Tick
}

// layout pushes sizes down to the children.
func (m *Model) layout() {
	m.board.SetHeight(m.tableHeight()-1, 3) // under the title, summary and column header
	m.help.SetWidth(m.width)
}

// tableHeight is the rows left for the table (column header included) after
// two title lines, the status line and the help line.
func (m *Model) tableHeight() int { return max(2, m.height-4) }

func (m *Model) applyFilter() {
	if q, changed := m.filter.Applied(); changed {
		m.board.SetQuery(q)
	}
}

func (m *Model) quit() tea.Cmd {
	m.cancel()
	if l := dialog.Find[*dialog.Login](m.dialogs); l != nil {
		l.Cancel()
	}
	return tea.Quit
}

func (m *Model) user() string {
	if p := m.ident.Principal; p != nil {
		return p.User
	}
	return ""
}
