package logs

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// searchState is the log view's "/" search: the text being typed, the
// pattern in force (highlighted) and the absolute line of the current match.
type searchState struct {
	typing    bool
	text      string
	pattern   string
	matchLine int // -1: none
	note      string
}

func (l *View) onKey(msg tea.KeyPressMsg) (tea.Cmd, Action) {
	k := l.keys
	if l.search.typing {
		l.searchKey(msg)
		return nil, nil
	}
	switch {
	case key.Matches(msg, k.LogFollow):
		l.follow = !l.follow
		if !l.follow {
			l.Stop() // the lines stay; the request ends
			return nil, nil
		}
		return l.restart(), nil
	case key.Matches(msg, k.LogPrevious):
		l.previous = !l.previous
		return l.restart(), nil
	case key.Matches(msg, k.LogWrap):
		l.wrap = !l.wrap
	case key.Matches(msg, k.LogPick):
		if choices := choicesOf(l.pods); len(choices) > 0 {
			return nil, Pick{Choices: choices, Pod: l.pod, Container: l.container}
		}
	case key.Matches(msg, k.Back, k.Quit), msg.String() == "backspace":
		l.Stop()
		return nil, Back{} // q goes back, as in k9s and less; ctrl+c quits
	case key.Matches(msg, k.Filter):
		l.search.typing, l.search.text = true, ""
	case key.Matches(msg, k.NextProblem):
		l.findNext(1)
	case key.Matches(msg, k.PrevProblem):
		l.findNext(-1)
	case key.Matches(msg, k.Up):
		l.Scroll(-1)
	case key.Matches(msg, k.Down):
		l.Scroll(1)
	case k.Paging(msg):
		l.Scroll(k.PageStep(msg, max(1, l.height-1)))
	case key.Matches(msg, k.Home):
		l.tail, l.top = false, l.ring.Dropped()
	case key.Matches(msg, k.End):
		l.tail = true
	case key.Matches(msg, k.Help):
		return nil, Help{}
	}
	return nil, nil
}

// restart reopens the stream of the container shown with the switches as
// they now are (nothing when none was chosen yet).
func (l *View) restart() tea.Cmd {
	if l.pod == "" {
		return nil
	}
	return l.Start(l.pod, l.container)
}

// Scroll moves by lines; reaching the last line sticks to it again.
func (l *View) Scroll(delta int) {
	first, total := l.ring.Dropped(), l.ring.Dropped()+l.ring.Len()
	if l.tail {
		if delta >= 0 {
			return
		}
		l.tail, l.top = false, l.firstShown()
	}
	l.top = max(first, min(l.top+delta, total-1))
	if delta > 0 && l.top >= total-l.height {
		l.tail = true
	}
}

// firstShown is the absolute line at the top of the body when tailing.
func (l *View) firstShown() int {
	return max(l.ring.Dropped(), l.ring.Dropped()+l.ring.Len()-l.height)
}

func (l *View) searchKey(msg tea.KeyPressMsg) {
	s := &l.search
	switch msg.String() {
	case "esc":
		s.typing = false
	case "enter":
		s.typing, s.pattern = false, s.text
		s.matchLine = -1
		if s.pattern == "" {
			s.note = ""
			return
		}
		// From the newest line when tailing (the latest match), else from the top.
		if l.tail {
			s.matchLine = l.ring.Dropped() + l.ring.Len()
			l.findNext(-1)
			return
		}
		s.matchLine = l.top - 1
		l.findNext(1)
	case "backspace":
		if r := []rune(s.text); len(r) > 0 {
			s.text = string(r[:len(r)-1])
		}
	default:
		if msg.Text != "" {
			s.text += msg.Text
		}
	}
}

// findNext moves to the next (dir 1, newer) or previous (-1, older) line
// that holds the pattern.
func (l *View) findNext(dir int) {
	s := &l.search
	if s.pattern == "" {
		s.note = "no search: / to search"
		return
	}
	first, total := l.ring.Dropped(), l.ring.Dropped()+l.ring.Len()
	from := s.matchLine
	if from < first-1 || from > total {
		from = map[bool]int{true: first - 1, false: total}[dir > 0]
	}
	for i := from + dir; i >= first && i < total; i += dir {
		if matchAt(l.ring.At(i-first), s.pattern) >= 0 {
			s.matchLine, s.note = i, ""
			l.tail, l.top = false, max(first, i-2)
			return
		}
	}
	s.note = "no more matches for /" + s.pattern
	if dir < 0 {
		s.note = "no earlier match for /" + s.pattern
	}
}

// matchAt is the byte offset of pattern in line, ignoring case where
// lowering keeps the offsets (else matching case), or -1.
func matchAt(line, pattern string) int {
	lower := strings.ToLower(line)
	if len(lower) != len(line) {
		return strings.Index(line, pattern)
	}
	return strings.Index(lower, strings.ToLower(pattern))
}
