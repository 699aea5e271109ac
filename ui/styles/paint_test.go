package ui

import "testing"

// TestPaintRendersAsLipgloss: the pre-rendered styles write, for every text
// the board gives them, exactly what lipgloss would.
func TestPaintRendersAsLipgloss(t *testing.T) {
	texts := []string{"driftboard", " │ ", "✖ 3 red", "a  b ", " READ-ONLY ", "日本 ünï", "\x1b[1mnested\x1b[m", "", "x\ty", "two\nlines", "cr\r\nlf"}
	for _, c := range []struct {
		name        string
		dark, plain bool
	}{{"dark", true, false}, {"light", false, false}, {"plain", true, true}} {
		st := newStyles(c.dark, c.plain)
		paints := map[string]paint{
			"title": st.title, "badge": st.badge, "dim": st.dim, "bold": st.bold, "accent": st.accent,
			"errText": st.errText, "warnText": st.warnText, "okText": st.okText, "colHeader": st.colHeader,
			"dialogTitle": st.dialogTitle,
		}
		for name, p := range paints {
			for _, s := range texts {
				if got, want := p.Render(s), p.Style.Render(s); got != want {
					t.Errorf("%s %s.Render(%q) = %q, lipgloss writes %q", c.name, name, s, got, want)
				}
			}
		}
	}
}
