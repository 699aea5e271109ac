package logs

import "github.com/hanzoai/driftboard/model/logbuf"

// Action is what the view asks of the board; nil: nothing.
type Action interface{ logsAction() }

type (
	// Back leaves the view (its stream already stopped) for where it was
	// opened from.
	Back struct{}
	// Help opens help over the view.
	Help struct{}
	// Pick offers the pods' containers, the cursor on Pod and Container;
	// the board calls Start with the one picked.
	Pick struct {
		Choices        []Choice
		Pod, Container string
	}
)

func (Back) logsAction() {}
func (Help) logsAction() {}
func (Pick) logsAction() {}

// Searching reports that the view's bottom line is its own: a search being
// typed, or what the last one found.
func (l View) Searching() bool { return l.search.typing || l.search.note != "" }

// Streaming reports that a stream is open and reading.
func (l View) Streaming() bool { return l.streaming }

// Err is why the pods could not be listed or the stream failed.
func (l View) Err() error { return l.err }

// Lines are the lines kept, oldest first.
func (l View) Lines() *logbuf.Ring { return l.ring }

// Match is the absolute number of the line the search stopped on (-1: none).
func (l View) Match() int { return l.search.matchLine }

// Tailing reports that the view sticks to the last line.
func (l View) Tailing() bool { return l.tail }
