package board

import (
	"strings"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/styles"
)

// writeFlags writes the problem marker ("! no workload", in the warning
// colour) then the drift flags that fit. When marker and flags do not fit
// together the marker shrinks to "!" (the detail says why); alone, it is
// truncated. Either way it always shows.
func writeFlags(b *strings.Builder, st *styles.Styles, r *model.AppView, w int, coloured bool) {
	marker := problemCell(r.Problems)
	if len(r.Drift.Flags) == 0 && marker == "" && !r.WaitsOnRelease() {
		format.WriteCell(b, "-", w)
		return
	}
	if marker != "" && len(r.Drift.Flags) > 0 && format.TextWidth(marker)+3*len(r.Drift.Flags) > w {
		marker = "!"
	}
	n := 0
	if marker != "" {
		mw := min(format.TextWidth(marker), w)
		if coloured {
			b.WriteString(st.Warn.Pre)
		}
		format.WriteCell(b, marker, mw)
		if coloured {
			b.WriteString(st.Warn.Post)
		}
		n = mw
	}
	for _, f := range r.Drift.Flags {
		s := model.FlagWords.Of(f.Kind).Board
		if s == "" {
			s = format.Safe(string(f.Kind))
		}
		need := format.TextWidth(s)
		if n > 0 {
			need++
		}
		if n+need > w {
			break
		}
		if n > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
		n += need
	}
	// The release was not checked: its flags are withheld, and the row says
	// it waits rather than looking clean.
	if r.WaitsOnRelease() && n+len(unknownRelease)+1 <= w {
		if n > 0 {
			b.WriteByte(' ')
			n++
		}
		if coloured {
			b.WriteString(st.Sev[model.MarkUnknown].Pre)
		}
		b.WriteString(unknownRelease)
		if coloured {
			b.WriteString(st.Sev[model.MarkUnknown].Post)
		}
		n += len(unknownRelease)
	}
	format.WriteSpaces(b, w-n)
}
