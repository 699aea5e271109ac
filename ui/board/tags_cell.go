package board

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
)

// tagSides are the declared and running tags as the cell shows them, or
// one word when they agree (or both are missing).
func tagSides(r *model.AppView) (d, run string, two bool) {
	d, run = r.DeclaredTag, r.RunningTag
	if r.RunningUnknown() {
		run = "?" // not listed yet, or unreadable: unknown, not none
	}
	switch {
	case d == run && d != "":
		return d, "", false
	case d == "" && run == "":
		return "-", "", false
	}
	return format.OrDash(d), format.OrDash(run), true
}

// fitTags is DECLARED→RUNNING (one tag when both agree) cut to w columns. Cut at its end, a long declared tag
// hid the running one (the drift the column is for), so the declared tag is
// cut first and the running tag kept whole while the declared keeps a few
// columns; when even that does not fit, each side gets about half.
func fitTags(r *model.AppView, w int) string {
	d, run, two := tagSides(r)
	switch {
	case !two:
		return d
	case w < 5 || format.TextWidth(d)+1+format.TextWidth(run) <= w:
		return d + "→" + run // fits, or writeCell cuts it
	}
	d, run = format.Safe(d), format.Safe(run) // widths as shown: escapes count
	dw := w - 1 - format.TextWidth(run)
	if dw < 4 { // "v1…" at least: else about half each, the declared's unused share to the running
		dw = min(format.TextWidth(d), (w-1)/2)
	}
	return cutTo(d, dw) + "→" + cutTo(run, w-1-dw)
}

// cutTo cuts s to w columns with an format.Ellipsis.
func cutTo(s string, w int) string {
	if format.TextWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, format.Ellipsis)
}
