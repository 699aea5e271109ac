// Package styles is every style of the board, built once per background
// and colour profile, some pre-rendered to their SGR sequences for the
// row hot path.
package styles

import (
	"image/color"
	"strings"
	"sync/atomic"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"

	"github.com/hanzoai/driftboard/model"
)

// Wrap is a style pre-rendered to its SGR prefix and suffix, so the row hot
// path writes two strings instead of calling lipgloss per cell.
type Wrap struct{ Pre, Post string }

// WrapOf pre-renders s.
func WrapOf(s lipgloss.Style) Wrap {
	r := s.Render("X") // SGR sequences never contain 'X'
	i := strings.IndexByte(r, 'X')
	if i < 0 {
		return Wrap{}
	}
	return Wrap{Pre: r[:i], Post: r[i+1:]}
}

// Paint is a lipgloss style that renders one line of text as its
// pre-rendered prefix and suffix: what lipgloss writes for such text (no
// width, padding or border is set on these), without lipgloss's work on
// each call. Anything else goes through lipgloss.
type Paint struct {
	lipgloss.Style
	w Wrap
}

// PaintOf is s with its pre-rendered sequences.
func PaintOf(s lipgloss.Style) Paint { return Paint{Style: s, w: WrapOf(s)} }

// Render writes s in the style.
func (p Paint) Render(s string) string {
	if s == "" || strings.ContainsAny(s, "\t\r\n") {
		return p.Style.Render(s)
	}
	return p.w.Pre + s + p.w.Post
}

// The row's mark (model.Mark) as the board writes it: glyph and word,
// indexed by the mark. Colour-blind safe: each has its own glyph and word
// besides colour.
var (
	sevLabel      [4]string // "✖ red"
	sevLabelWidth [4]int    // each label's display width (glyphs are one column)
)

// pad is more spaces than a severity cell is wide.
const pad = "                "

// generation numbers every Styles value built: a line cached under one
// (Styles.Gen) is not drawn under another.
var generation atomic.Uint64

// MarkLabel is the mark as the board writes it: glyph and word ("✖ red").
func MarkLabel(m model.Mark) string { return sevLabel[m] }

func init() {
	for m := model.MarkOK; m <= model.MarkRed; m++ {
		sevLabel[m] = m.Glyph() + " " + m.Word()
		sevLabelWidth[m] = 2 + len(m.Word())
	}
}

// Styles is every style of the board, built once per background/profile.
type Styles struct {
	Gen   uint64 // tells this set of styles from any other (row lines cached under it)
	Plain bool
	Dark  bool

	Sev      [4]Wrap // mark colours for glyph+word cells, indexed by model.Mark
	Health   map[model.Health]Wrap
	Warn     Wrap // the "!" problem marker
	Faint    Wrap // stale rows
	Selected Wrap // cursor row

	Title, Badge, Dim, Bold, Accent Paint
	ErrText, WarnText, OkText       Paint
	ColHeader, DialogTitle          Paint
	Dialog                          lipgloss.Style
	Help                            help.Styles
	Input                           textinput.Styles
}

// New builds the styles for a dark (or light) background; plain has no
// colours.
func New(dark, plain bool) Styles {
	ld := lipgloss.LightDark(dark)
	c := func(light, darkHex string) color.Color {
		if plain {
			return nil
		}
		return ld(lipgloss.Color(light), lipgloss.Color(darkHex))
	}
	fg := func(col color.Color) lipgloss.Style {
		s := lipgloss.NewStyle()
		if col != nil {
			s = s.Foreground(col)
		}
		return s
	}
	red, yellow, green := c("#B42318", "#FF6B6B"), c("#8A5A00", "#F2C94C"), c("#1A7F37", "#56D364")
	muted, accent := c("#57606A", "#8B949E"), c("#0550AE", "#79C0FF")

	st := Styles{Gen: generation.Add(1), Plain: plain, Dark: dark}
	st.Sev = [4]Wrap{model.MarkOK: WrapOf(fg(green)), model.MarkUnknown: WrapOf(fg(muted)),
		model.MarkYellow: WrapOf(fg(yellow).Bold(true)), model.MarkRed: WrapOf(fg(red).Bold(true))}
	st.Health = map[model.Health]Wrap{
		model.HealthGreen: WrapOf(fg(green)), model.HealthYellow: WrapOf(fg(yellow)),
		model.HealthRed: WrapOf(fg(red)), model.HealthUnknown: WrapOf(fg(muted)), model.HealthSyncing: WrapOf(fg(muted)),
	}
	st.Warn = WrapOf(fg(yellow).Bold(true))
	st.Faint = WrapOf(lipgloss.NewStyle().Faint(true))
	sel := lipgloss.NewStyle().Reverse(true)
	if !plain {
		sel = lipgloss.NewStyle().Background(c("#DDF4FF", "#1F3A5F")).Foreground(c("#0B1F33", "#FFFFFF"))
	}
	st.Selected = WrapOf(sel)

	st.Title = PaintOf(fg(accent).Bold(true))
	st.Badge = PaintOf(lipgloss.NewStyle().Bold(true).Reverse(true))
	st.Dim = PaintOf(fg(muted))
	if plain {
		st.Dim = PaintOf(lipgloss.NewStyle().Faint(true))
	}
	st.Bold = PaintOf(lipgloss.NewStyle().Bold(true))
	st.Accent = PaintOf(fg(accent))
	st.ErrText = PaintOf(fg(red).Bold(true))
	st.WarnText = PaintOf(fg(yellow))
	st.OkText = PaintOf(fg(green))
	st.ColHeader = PaintOf(fg(muted).Bold(true))
	border := lipgloss.RoundedBorder()
	if plain {
		border = lipgloss.NormalBorder()
	}
	st.Dialog = lipgloss.NewStyle().Border(border).Padding(0, 1)
	if !plain {
		st.Dialog = st.Dialog.BorderForeground(accent)
	}
	st.DialogTitle = st.Title

	st.Help = help.Styles{
		Ellipsis: st.Dim.Style, ShortKey: st.Accent.Style, ShortDesc: st.Dim.Style, ShortSeparator: st.Dim.Style,
		FullKey: st.Accent.Style, FullDesc: lipgloss.NewStyle(), FullSeparator: st.Dim.Style,
	}
	in := textinput.DefaultStyles(dark)
	in.Cursor.Blink = false // no timer redraws while typing
	if plain {
		in = textinput.Styles{}
	}
	in.Focused.Prompt = st.Accent.Style
	st.Input = in
	return st
}

// WriteSeverity writes "✖ red" in the mark's colour, padded to w.
func (st *Styles) WriteSeverity(b *strings.Builder, sev model.Mark, w int, coloured bool) {
	if coloured {
		b.WriteString(st.Sev[sev].Pre)
	}
	b.WriteString(sevLabel[sev]) // glyphs are one column wide
	b.WriteString(pad[:max(0, min(len(pad), w-sevLabelWidth[sev]))])
	if coloured {
		b.WriteString(st.Sev[sev].Post)
	}
}
