package styles

import "testing"

// TestPaintRendersAsLipgloss: the pre-rendered styles write, for every text
// the board gives them, exactly what lipgloss would.
func TestPaintRendersAsLipgloss(t *testing.T) {
	texts := []string{"driftboard", " │ ", "✖ 3 red", "a  b ", " READ-ONLY ", "日本 ünï", "\x1b[1mnested\x1b[m", "", "x\ty", "two\nlines", "cr\r\nlf"}
	for _, c := range []struct {
		name        string
		dark, plain bool
	}{{"dark", true, false}, {"light", false, false}, {"plain", true, true}} {
		st := New(c.dark, c.plain)
		paints := map[string]Paint{
			"title": st.Title, "badge": st.Badge, "dim": st.Dim, "bold": st.Bold, "accent": st.Accent,
			"errText": st.ErrText, "warnText": st.WarnText, "okText": st.OkText, "colHeader": st.ColHeader,
			"dialogTitle": st.DialogTitle,
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
