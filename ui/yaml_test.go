package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/yaml"
)

// yamlRestarter is a Restarter that also reads the App's YAML, as
// kube.Fleet does; the test says what the GET answers.
type yamlRestarter struct {
	*fakeRestarter
	text string
	err  error
	keys []model.Key
}

func (y *yamlRestarter) AppYAML(_ context.Context, k model.Key) (string, error) {
	y.keys = append(y.keys, k)
	return y.text, y.err
}

func openYAMLOn(t *testing.T, y *yamlRestarter, h int) *Model {
	t.Helper()
	m, src := newTestModel(t, y, orgAdmin(), Options{}, 100, h)
	src.upsert(floatingApp("", 2))
	m.Update(snapshotMsg{src.Snapshot()})
	selectApp(t, m, "web")
	return m
}

func TestYAMLViewOpensScrollsAndGoesBack(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("apiVersion: hanzo.ai/v1\nkind: App\nmetadata:\n  name: web\n  annotations:\n    note: \"evil\x1b[2J\x1b]52;c;cHduZWQ=\x07 here\"\nspec:\n")
	for i := range 40 {
		fmt.Fprintf(&sb, "  field%02d: value%02d\n", i, i)
	}
	y := &yamlRestarter{fakeRestarter: &fakeRestarter{}, text: sb.String()}
	m := openYAMLOn(t, y, 20)

	_, cmd := m.Update(keyMsg("y"))
	if v := plainView(m); !strings.Contains(v, "reading the App…") {
		t.Errorf("before the answer:\n%s", v)
	}
	answers := msgsOf[yaml.Msg](cmd)
	if len(answers) != 1 || len(y.keys) != 1 || y.keys[0].Name != "web" {
		t.Fatalf("y read %v (answers %d), want one GET of web", y.keys, len(answers))
	}
	m.Update(answers[0])
	raw := m.View().Content
	v := plainView(m)
	for _, want := range []string{"App hanzo/web", "kind: App", "  name: web", "field00: value00"} {
		if !strings.Contains(v, want) {
			t.Errorf("YAML view lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(raw, "\x1b]52") || strings.Contains(raw, "\x1b[2J") || strings.Contains(raw, "\x07") {
		t.Errorf("hostile value reached the terminal: %q", raw)
	}
	if !strings.Contains(v, `note: "evil`) || !strings.Contains(v, `here"`) {
		t.Errorf("hostile line not shown escaped:\n%s", v)
	}

	press(m, "G")
	if v := plainView(m); !strings.Contains(v, "field39: value39") || strings.Contains(v, "kind: App") {
		t.Errorf("end did not scroll to the last line:\n%s", v)
	}
	press(m, "g", "j")
	if v := plainView(m); strings.Contains(v, "App hanzo/web ·") || !strings.Contains(v, "kind: App") {
		t.Errorf("one line down from the top:\n%s", v)
	}

	press(m, "q")
	if m.screen != screenBoard || !strings.Contains(plainView(m), "web") {
		t.Fatalf("q did not go back to the board (screen %d)", m.screen)
	}

	// From the detail, esc goes back to the detail.
	press(m, "enter")
	_, cmd = m.Update(keyMsg("y"))
	for _, a := range msgsOf[yaml.Msg](cmd) {
		m.Update(a)
	}
	if m.screen != screenYAML {
		t.Fatalf("y in the detail: screen %d", m.screen)
	}
	press(m, "esc")
	if m.screen != screenDetail {
		t.Errorf("esc from the YAML over the detail: screen %d, want the detail", m.screen)
	}
}

func TestYAMLViewSaysWhyNot(t *testing.T) {
	y := &yamlRestarter{fakeRestarter: &fakeRestarter{},
		err: errors.New("get App hanzo/web: Kubernetes refused: frank may not get apps.hanzo.ai in namespace hanzo")}
	m := openYAMLOn(t, y, 30)
	_, cmd := m.Update(keyMsg("y"))
	for _, a := range msgsOf[yaml.Msg](cmd) {
		m.Update(a)
	}
	if v := plainView(m); !strings.Contains(v, "could not read the App: get App hanzo/web: Kubernetes refused: frank may not get") {
		t.Errorf("refused GET:\n%s", v)
	}

	// A source that cannot read YAML says so, with why, rather than
	// showing anything.
	m2, src := newTestModel(t, &fakeRestarter{}, orgAdmin(), Options{}, 100, 30)
	src.upsert(floatingApp("", 2))
	m2.Update(snapshotMsg{src.Snapshot()})
	selectApp(t, m2, "web")
	_, cmd = m2.Update(keyMsg("y"))
	for _, a := range msgsOf[yaml.Msg](cmd) {
		m2.Update(a)
	}
	if v := plainView(m2); !strings.Contains(v, "YAML: not available from this source (the board has no fleet)") ||
		strings.Contains(v, "could not read") {
		t.Errorf("not available:\n%s", v)
	}
}
