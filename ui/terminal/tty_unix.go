//go:build unix

package terminal

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"golang.org/x/term"
)

// ttyFrameRate is how often bubbletea still wakes to send its queued
// terminal queries once it draws nothing itself (ttyScreen draws): the
// background colour is asked for at once as the terminal is taken, so
// nothing waits on it, and an idle program wakes once a second instead of
// at bubbletea's frame rate.
const ttyFrameRate = 1

// ttyScreen is the terminal the program owns while it runs on one: input in
// raw mode, the alternate screen, mouse and paste reporting, and a
// LineScreen that writes each new frame as soon as Update has made it,
// instead of bubbletea's renderer drawing the latest frame on its next tick.
// A change therefore reaches the screen without waiting for a tick, and no
// timer wakes the board to look for one.
type ttyScreen struct {
	in, out *os.File
	saved   *term.State
	screen  *LineScreen
	last    string // the content on screen
	shown   bool   // last is on screen

	// mu orders draw and close: a panic in a Cmd closes from its own
	// goroutine while the event loop may still draw.
	mu     sync.Mutex
	closed bool

	synced  bool   // the terminal holds a frame between mode 2026 set and reset
	syncBuf []byte // a frame so held
}

// ttyEnter and ttyLeave switch the modes bubbletea's renderer switches for
// a full-screen View (AltScreen, MouseModeCellMotion, a window title, no
// cursor, bracketed paste).
var (
	ttyEnter = ansi.SetModeAltScreenSaveCursor + ansi.HideCursor + ansi.SetModeBracketedPaste +
		ansi.SetModeMouseButtonEvent + ansi.SetModeMouseExtSgr + ansi.SetWindowTitle("driftboard")
	ttyLeave = ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr +
		ansi.ResetModeBracketedPaste + ansi.SetWindowTitle("") + ansi.ShowCursor + ansi.ResetModeAltScreenSaveCursor
)

// Leave is what the terminal is sent as it is given back, after the last
// frame.
func Leave() string { return ttyLeave }

// openTTY takes over the terminal on in and out; ok is false (and nothing
// changed) when either is not a terminal.
func openTTY(in, out *os.File, profile colorprofile.Profile, askBackground bool) (_ *ttyScreen, ok bool, _ error) {
	if !term.IsTerminal(int(in.Fd())) || !term.IsTerminal(int(out.Fd())) {
		return nil, false, nil
	}
	w, h, err := term.GetSize(int(out.Fd()))
	if err != nil || w == 0 || h == 0 || !plausibleSize(w, h) { // 0: bubbletea falls back to $COLUMNS/$LINES or 80x24
		return nil, false, nil
	}
	saved, err := term.MakeRaw(int(in.Fd()))
	if err != nil {
		return nil, true, err
	}
	t := &ttyScreen{in: in, out: out, saved: saved, screen: NewLineScreen(w, h, os.Environ(), profile)}
	enter := ttyEnter
	if askBackground {
		enter += ansi.RequestBackgroundColor
	}
	if asksForSyncedOutput(os.Environ()) {
		enter += ansi.RequestModeSynchronizedOutput
	}
	_, _ = out.WriteString(enter)
	return t, true, nil
}

// plausibleSize is bubbletea's bound on a terminal's size (it drops any
// WindowSizeMsg beyond it): a cell buffer that size is never allocated.
func plausibleSize(w, h int) bool {
	return w >= 0 && h >= 0 && w <= 4096 && h <= 4096 && w*h <= 1<<20
}

// size is the terminal's size now.
func (t *ttyScreen) size() (w, h int, err error) { return term.GetSize(int(t.out.Fd())) }

// close leaves the terminal as it was; nothing is drawn after it.
func (t *ttyScreen) close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	t.closed = true
	_, _ = t.out.WriteString(ttyLeave)
	_ = term.Restore(int(t.in.Fd()), t.saved)
}

// closeOnPanic gives the terminal back before a panic reaches bubbletea,
// which prints it on stderr: on the alternate screen it would be erased
// with the board.
func (t *ttyScreen) closeOnPanic() {
	if r := recover(); r != nil {
		t.close()
		panic(r)
	}
}

// guard makes cmd, and the Cmds of a batch it returns, close the terminal
// when they panic (bubbletea recovers them in their own goroutines).
func (t *ttyScreen) guard(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		defer t.closeOnPanic()
		msg := cmd()
		if batch, ok := msg.(tea.BatchMsg); ok {
			guarded := make(tea.BatchMsg, len(batch))
			for i, c := range batch {
				guarded[i] = t.guard(c)
			}
			return guarded
		}
		return msg
	}
}

func (t *ttyScreen) resize(w, h int) {
	t.screen.Resize(w, h)
	t.shown = false
}

// draw brings the screen to content, writing only what changed.
func (t *ttyScreen) draw(content string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed || t.shown && content == t.last {
		return
	}
	t.last, t.shown = content, true
	if b := t.screen.Frame(content); len(b) > 0 {
		_, _ = t.out.Write(t.framed(b)) // a terminal gone is bubbletea's to notice, on input
	}
}

// setClipboard writes text to the system clipboard (OSC 52) at once.
func (t *ttyScreen) setClipboard(text string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.closed {
		_, _ = t.out.WriteString(ansi.SetSystemClipboard(text))
	}
}

// Options say which terminal Run takes over and how.
type Options struct {
	Profile colorprofile.Profile
	In, Out *os.File
	// AskBackground asks the terminal for its background colour as it is
	// taken: asked later through bubbletea, the query would wait for its
	// next flush, which on a quick quit comes after input stops, and the
	// reply would land in the shell.
	AskBackground bool
	// Taken is called once the terminal is taken, before the program
	// starts, with a writer that puts text on the system clipboard (OSC 52)
	// at once.
	Taken func(setClipboard func(text string))
}

// Run runs m full-screen on the terminal In and Out, each frame drawn by a
// ttyScreen as soon as Update has made it; ok is false (nothing run) when
// either is not a terminal or its size is implausible. final is the model
// the program ended with.
func Run(ctx context.Context, m tea.Model, o Options) (final tea.Model, ok bool, _ error) {
	tty, ok, err := openTTY(o.In, o.Out, o.Profile, o.AskBackground)
	if !ok || err != nil {
		return nil, ok, err
	}
	if o.Taken != nil {
		o.Taken(tty.setClipboard)
	}
	defer tty.close()
	w, h, err := tty.size()
	if err != nil {
		return nil, true, err
	}
	p := tea.NewProgram(ttyModel{Model: m, tty: tty}, tea.WithContext(ctx), tea.WithColorProfile(o.Profile),
		tea.WithInput(o.In), tea.WithOutput(o.Out), tea.WithoutRenderer(), tea.WithFPS(ttyFrameRate), tea.WithWindowSize(w, h))
	sizes, stop := context.WithCancel(ctx)
	defer stop()
	go tty.followSize(sizes, p)
	end, err := p.Run()
	if tm, ok := end.(ttyModel); ok {
		return tm.Model, true, err
	}
	return nil, true, err
}

// followSize sends the terminal's size to p after each SIGWINCH until ctx
// ends (bubbletea's own watch needs its renderer).
func (t *ttyScreen) followSize(ctx context.Context, p *tea.Program) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGWINCH)
	defer signal.Stop(sig)
	for {
		select {
		case <-ctx.Done():
			return
		case <-sig:
		}
		if w, h, err := t.size(); err == nil {
			p.Send(tea.WindowSizeMsg{Width: w, Height: h})
		}
	}
}

// ttyModel is a program drawn by a ttyScreen: each View that bubbletea asks
// for after an Update is written at once.
type ttyModel struct {
	tea.Model
	tty *ttyScreen
}

func (m ttyModel) Init() tea.Cmd {
	defer m.tty.closeOnPanic()
	return m.tty.guard(m.Model.Init())
}

func (m ttyModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	defer m.tty.closeOnPanic()
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.tty.resize(msg.Width, msg.Height)
	case tea.ColorProfileMsg: // as bubbletea's renderer follows it
		m.tty.screen.SetProfile(msg.Profile)
		m.tty.shown = false
	case tea.ModeReportMsg:
		m.tty.followSyncReply(msg)
	}
	next, cmd := m.Model.Update(msg)
	m.Model = next
	return m, m.tty.guard(cmd)
}

func (m ttyModel) View() tea.View {
	defer m.tty.closeOnPanic()
	v := m.Model.View()
	m.tty.draw(v.Content)
	return v
}
