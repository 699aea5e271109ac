package ui

import (
	"strings"
	"testing"
)

// On the screen too, a control character inside a problem's or a flag's
// sentence reads as it does in a cell: \x07, never Go's \a.
func TestDetailSpellsControlCharactersOneWay(t *testing.T) {
	m, src := newTestModel(t, allowed(), orgAdmin(), Options{}, 160, 60)
	row := app{ns: "hanzo", name: "api", role: "svc\a", declared: "v1\a", running: "v1\a", latest: "v2"}.build()
	src.upsert(row)
	m.Update(snapshotMsg{src.Snapshot()})
	selectKey(t, m, row.Key())
	press(m, "enter")
	v := plainView(m)
	for _, want := range []string{`Role "svc\x07" is unknown`, `Declared tag "v1\x07"`, `has invalid character '\x07'`} {
		if !strings.Contains(v, want) {
			t.Errorf("the detail lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, `\a`) {
		t.Errorf("a second spelling (\\a) on the screen:\n%s", v)
	}
}
