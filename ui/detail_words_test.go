package ui

import (
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/model"
)

// The detail's upgrade line says what the operator reported: a last good
// image without a phase is "none under way", not "- -".
func TestDetailUpgradeWithoutPhase(t *testing.T) {
	m, src := newTestModel(t, nil, nil, Options{}, 120, 60)
	v := app{ns: "hanzo", name: "docs", declared: "v1.0.0", running: "v1.0.0", latest: "v1.0.0", ready: 2, updated: 2, assets: 1}.build()
	v.Upgrade = &model.Upgrade{LastGoodImage: "ghcr.io/hanzoai/docs:v1.0.0"}
	src.upsert(v)
	m.Update(snapshotMsg{src.Snapshot()})
	selectApp(t, m, "docs")
	press(m, "enter")
	out := plainView(m)
	if !strings.Contains(out, "none under way · last good ghcr.io/hanzoai/docs:v1.0.0") || strings.Contains(out, "- -") {
		t.Fatalf("upgrade line:\n%s", out)
	}
}

// The detail of a row whose release was not read, or with checks off,
// does not say "✓ no drift" above the flags it could not decide.
func TestDetailNoDriftOnlyWhenChecked(t *testing.T) {
	for _, c := range []struct {
		state model.ReleaseState
		also  string
	}{
		{model.ReleasePending, "release not checked"},
		{model.ReleaseOff, "release checks off"},
	} {
		m, src := newTestModel(t, nil, nil, Options{}, 120, 60)
		src.upsert(app{ns: "hanzo", name: "docs", declared: "v1.0.0", running: "v1.0.0", ready: 2, updated: 2, release: c.state}.build())
		m.Update(snapshotMsg{src.Snapshot()})
		selectApp(t, m, "docs")
		press(m, "enter")
		out := plainView(m)
		if strings.Contains(out, "✓ no drift  ") || strings.Contains(out, "✓ no drift\n") || !strings.Contains(out, "no drift in the flags checked") || !strings.Contains(out, c.also) {
			t.Errorf("release %s: drift section:\n%s", c.state, out)
		}
	}
}
