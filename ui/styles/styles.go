package ui

import (
	"image/color"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"

	"github.com/hanzoai/driftboard/model"
)

// wrap is a style pre-rendered to its SGR prefix and suffix, so the row hot
// path writes two strings instead of calling lipgloss per cell.
type wrap struct{ pre, post string }

func wrapOf(s lipgloss.Style) wrap {
	r := s.Render("X") // SGR sequences never contain 'X'
	i := strings.IndexByte(r, 'X')
	if i < 0 {
		return wrap{}
	}
	return wrap{pre: r[:i], post: r[i+1:]}
}

// paint is a lipgloss style that renders one line of text as its
// pre-rendered prefix and suffix: what lipgloss writes for such text (no
// width, padding or border is set on these), without lipgloss's work on
// each call. Anything else goes through lipgloss.
type paint struct {
	lipgloss.Style
	w wrap
}

func paintOf(s lipgloss.Style) paint { return paint{Style: s, w: wrapOf(s)} }

func (p paint) Render(s string) string {
	if s == "" || strings.ContainsAny(s, "\t\r\n") {
		return p.Style.Render(s)
	}
	return p.w.pre + s + p.w.post
}

// The row's mark (model.Mark) as the board writes it: glyph and word,
// indexed by the mark. Colour-blind safe: each has its own glyph and word
// besides colour.
var (
	sevLabel      [4]string // "✖ red"
	sevLabelWidth [4]int    // each label's display width (glyphs are one column)
)

func init() {
	for m := model.MarkOK; m <= model.MarkRed; m++ {
		sevLabel[m] = m.Glyph() + " " + m.Word()
		sevLabelWidth[m] = 2 + len(m.Word())
	}
}

// styles is every style of the board, built once per background/profile.
type styles struct {
	gen   uint64 // tells this set of styles from any other (row lines cached under it)
	plain bool
	dark  bool

	sev      [4]wrap // mark colours for glyph+word cells, indexed by model.Mark
	health   map[model.Health]wrap
	warn     wrap // the "!" problem marker
	faint    wrap // stale rows
	selected wrap // cursor row

	title, badge, dim, bold, accent paint
	errText, warnText, okText       paint
	colHeader, dialogTitle          paint
	dialog                          lipgloss.Style
	help                            help.Styles
	input                           textinput.Styles
}

func newStyles(dark, plain bool) styles {
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

	st := styles{gen: stylesGen.Add(1), plain: plain, dark: dark}
	st.sev = [4]wrap{model.MarkOK: wrapOf(fg(green)), model.MarkUnknown: wrapOf(fg(muted)),
		model.MarkYellow: wrapOf(fg(yellow).Bold(true)), model.MarkRed: wrapOf(fg(red).Bold(true))}
	st.health = map[model.Health]wrap{
		model.HealthGreen: wrapOf(fg(green)), model.HealthYellow: wrapOf(fg(yellow)),
		model.HealthRed: wrapOf(fg(red)), model.HealthUnknown: wrapOf(fg(muted)), model.HealthSyncing: wrapOf(fg(muted)),
	}
	st.warn = wrapOf(fg(yellow).Bold(true))
	st.faint = wrapOf(lipgloss.NewStyle().Faint(true))
	sel := lipgloss.NewStyle().Reverse(true)
	if !plain {
		sel = lipgloss.NewStyle().Background(c("#DDF4FF", "#1F3A5F")).Foreground(c("#0B1F33", "#FFFFFF"))
	}
	st.selected = wrapOf(sel)

	st.title = paintOf(fg(accent).Bold(true))
	st.badge = paintOf(lipgloss.NewStyle().Bold(true).Reverse(true))
	st.dim = paintOf(fg(muted))
	if plain {
		st.dim = paintOf(lipgloss.NewStyle().Faint(true))
	}
	st.bold = paintOf(lipgloss.NewStyle().Bold(true))
	st.accent = paintOf(fg(accent))
	st.errText = paintOf(fg(red).Bold(true))
	st.warnText = paintOf(fg(yellow))
	st.okText = paintOf(fg(green))
	st.colHeader = paintOf(fg(muted).Bold(true))
	border := lipgloss.RoundedBorder()
	if plain {
		border = lipgloss.NormalBorder()
	}
	st.dialog = lipgloss.NewStyle().Border(border).Padding(0, 1)
	if !plain {
		st.dialog = st.dialog.BorderForeground(accent)
	}
	st.dialogTitle = st.title

	st.help = help.Styles{
		Ellipsis: st.dim.Style, ShortKey: st.accent.Style, ShortDesc: st.dim.Style, ShortSeparator: st.dim.Style,
		FullKey: st.accent.Style, FullDesc: lipgloss.NewStyle(), FullSeparator: st.dim.Style,
	}
	in := textinput.DefaultStyles(dark)
	in.Cursor.Blink = false // no timer redraws while typing
	if plain {
		in = textinput.Styles{}
	}
	in.Focused.Prompt = st.accent.Style
	st.input = in
	return st
}

// severityCell is "✖ red" in the severity's colour, padded to w.
func (st *styles) writeSeverity(b *strings.Builder, sev model.Mark, w int, coloured bool) {
	if coloured {
		b.WriteString(st.sev[sev].pre)
	}
	b.WriteString(sevLabel[sev]) // glyphs are one column wide
	writeSpaces(b, w-sevLabelWidth[sev])
	if coloured {
		b.WriteString(st.sev[sev].post)
	}
}
