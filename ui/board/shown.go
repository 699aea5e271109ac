package board

import (
	"slices"

	"github.com/hanzoai/driftboard/model"
)

// Shown is what a snapshot may change of the table on screen: the visible
// window of rows, the cursor and scroll, the columns' widths.
type Shown struct {
	rows           []*model.AppView
	cursor, offset int
	want           [numCols]int
	ident          [numCols]bool
}

// Shown is the table as it shows now.
func (b *View) Shown() Shown {
	s := Shown{cursor: b.cursor, offset: b.offset, want: b.want, ident: b.ident}
	if b.view != nil {
		b.view.Range(b.offset, func(_ int, r *model.AppView) bool {
			s.rows = append(s.rows, r)
			return len(s.rows) < b.height
		})
	}
	return s
}

// Same reports whether a shows what was shown in b; sameRow(was, now) tells
// a replaced row that looks the same.
func (a Shown) Same(b Shown, sameRow func(was, now *model.AppView) bool) bool {
	return a.cursor == b.cursor && a.offset == b.offset && a.want == b.want && a.ident == b.ident &&
		slices.EqualFunc(a.rows, b.rows, func(x, y *model.AppView) bool { return x == y || sameRow(y, x) })
}
