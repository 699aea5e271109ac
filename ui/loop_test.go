package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// loop is a small event loop for tests: it runs commands concurrently and
// feeds every message to Update on the test goroutine.
type loop struct {
	t    testing.TB
	m    *Model
	msgs chan tea.Msg
}

func newLoop(t testing.TB, m *Model) *loop { return &loop{t: t, m: m, msgs: make(chan tea.Msg, 256)} }

func (l *loop) spawn(c tea.Cmd) {
	if c == nil {
		return
	}
	go func() {
		msg := c()
		if b, ok := msg.(tea.BatchMsg); ok {
			for _, c := range b {
				l.spawn(c)
			}
			return
		}
		if msg != nil {
			l.msgs <- msg
		}
	}()
}

// until processes messages until done returns true for one (after Update).
func (l *loop) until(done func(tea.Msg) bool) {
	l.t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case msg := <-l.msgs:
			_, next := l.m.Update(msg)
			l.spawn(next)
			if done(msg) {
				return
			}
		case <-deadline:
			l.t.Fatal("event loop: timed out")
		}
	}
}
