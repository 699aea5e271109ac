package screenshots

import (
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// driver runs a bubbletea model without a terminal: it feeds messages to
// Update and runs the returned commands in goroutines, the way a Program
// does, but drops spinner ticks so every frame shows the same spinner phase.
type driver struct {
	m    tea.Model
	msgs chan tea.Msg
}

func newDriver(m tea.Model, width, height int) *driver {
	d := &driver{m: m, msgs: make(chan tea.Msg, 64)}
	d.run(m.Init())
	d.send(tea.WindowSizeMsg{Width: width, Height: height})
	return d
}

func (d *driver) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() { d.deliver(cmd()) }()
}

func (d *driver) deliver(msg tea.Msg) {
	switch msg := msg.(type) {
	case nil, spinner.TickMsg:
	case tea.BatchMsg:
		for _, c := range msg {
			d.run(c)
		}
	default:
		d.msgs <- msg
	}
}

func (d *driver) send(msg tea.Msg) {
	var cmd tea.Cmd
	d.m, cmd = d.m.Update(msg)
	d.run(cmd)
}

// settle applies messages until none has arrived for quiet: the answers to
// what the last key asked for (a permission check, a login prompt) are in.
func (d *driver) settle(quiet time.Duration) {
	for {
		select {
		case msg := <-d.msgs:
			d.send(msg)
		case <-time.After(quiet):
			return
		}
	}
}

// waitFor settles until the frame's text satisfies ok, or timeout passes
// (then the frame is taken as it is, and a stale committed frame shows it).
func (d *driver) waitFor(ok func(text string) bool, timeout time.Duration) {
	deadline := time.Now().Add(timeout)
	for {
		d.settle(100 * time.Millisecond)
		if ok(ansi.Strip(d.frame())) || time.Now().After(deadline) {
			return
		}
	}
}

// press sends keys one by one, settling after each.
func (d *driver) press(keys ...string) {
	for _, k := range keys {
		d.send(keyMsg(k))
		d.settle(150 * time.Millisecond)
	}
}

func (d *driver) frame() string { return d.m.View().Content }

// keyMsg turns a key name ("enter", "esc", "/", "L") into a key press.
func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	r := []rune(k)
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

// typeText presses each character of s.
func (d *driver) typeText(s string) {
	for _, r := range s {
		if r == ' ' {
			d.press("space")
			continue
		}
		d.press(string(r))
	}
}
