package board

import (
	"strings"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/styles"
)

// rowCache keeps each shown row's finished line between frames, so a frame
// under churn writes only the rows that changed. A snapshot's rows are
// immutable (a changed row is a new *AppView), so a line is reused while its
// row pointer, the cursor and mark on it, and the layout are the same; rows
// with a restart in flight carry the spinner and are never cached. Only the
// rows of the last frame are kept.
type rowCache struct {
	layout      rowLayout
	lines, next map[*model.AppView]cachedRow
	rendered    int // lines rendered, not reused (tests count them)
}

// rowLayout is what every line depends on: a new one drops the cache.
type rowLayout struct {
	styles uint64       // styles.Styles.Gen: theme, colour profile, plain
	width  int          // the padding to the terminal's width
	cols   [numCols]int // each column's width (0: not shown), in fixed order
}

type cachedRow struct {
	selected, marked bool
	line             string
}

// ForgetLines drops every line kept: the next frame renders each row
// afresh (a test's reference frame).
func (b *View) ForgetLines() { b.rows = rowCache{} }

// begin starts a frame with layout l.
func (c *rowCache) begin(l rowLayout) {
	if c.lines == nil || l != c.layout {
		c.lines = map[*model.AppView]cachedRow{}
		c.layout = l
	}
	if c.next == nil {
		c.next = map[*model.AppView]cachedRow{}
	}
}

// line is r's line: the cached one when still right, else render's.
func (c *rowCache) line(r *model.AppView, selected, marked bool, render func() string) string {
	if e, ok := c.lines[r]; ok && e.selected == selected && e.marked == marked {
		c.next[r] = e
		return e.line
	}
	c.rendered++
	e := cachedRow{selected: selected, marked: marked, line: render()}
	c.next[r] = e
	return e.line
}

// end keeps only this frame's rows.
func (c *rowCache) end() {
	clear(c.lines)
	c.lines, c.next = c.next, c.lines
}

// SameLine reports whether row now, which replaced row was on screen, would
// be drawn at width under st as was's line is now: a row also changes in
// what the board does not show (conditions, labels, when it was observed),
// and such a change needs no frame. now's line is kept for the next frame.
// A row with a restart in flight is never the same (the root asks).
func (b *View) SameLine(was, now *model.AppView, st *styles.Styles, width int) bool {
	c := &b.rows
	e, ok := c.lines[was]
	if !ok || was.Key() != now.Key() {
		return false
	}
	cols, pad := b.columns(width)
	if layoutOf(st, width, cols) != c.layout {
		return false
	}
	var line strings.Builder
	c.rendered++
	writeRow(&line, st, cols, pad, now, e.selected, e.marked, nil, "", b.promotions[now.Key()])
	c.lines[now] = cachedRow{selected: e.selected, marked: e.marked, line: line.String()}
	return line.String() == e.line
}

// layoutOf is the layout of cols at width under st.
func layoutOf(st *styles.Styles, width int, cols []placed) rowLayout {
	l := rowLayout{styles: st.Gen, width: width}
	for _, c := range cols {
		l.cols[c.id] = c.width
	}
	return l
}

// writeRow renders one row's line: gutter (cursor, spinner, mark), each
// column, the padding to width.
func writeRow(line *strings.Builder, st *styles.Styles, cols []placed, pad int, r *model.AppView, selected, marked bool, fl *Restart, spinner, promo string) {
	plainRow := selected || r.Offline // whole-line style; no inner colours
	markGlyph := " "
	if marked {
		markGlyph = MarkedGlyph
	}
	switch {
	case selected:
		line.WriteString(st.Selected.Pre)
		line.WriteString("›" + markGlyph)
	case fl != nil:
		line.WriteString(spinner)
		line.WriteString(markGlyph)
	default:
		if r.Offline {
			line.WriteString(st.Faint.Pre)
		}
		line.WriteString(" " + markGlyph)
	}
	for ci, c := range cols {
		if ci > 0 {
			line.WriteByte(' ')
		}
		writeColumn(line, st, c, r, fl, !plainRow, promo)
	}
	format.WriteSpaces(line, pad)
	if selected {
		line.WriteString(st.Selected.Post)
	} else if r.Offline {
		line.WriteString(st.Faint.Post)
	}
}
