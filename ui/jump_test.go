package ui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func shownApps(m *Model) []string {
	var out []string
	for _, r := range m.board.allRows() {
		out = append(out, r.Namespace+"/"+r.App)
	}
	slices.Sort(out)
	return out
}

func TestJumpPrompt(t *testing.T) {
	m, src := newTestModel(t, &fakeRestarter{}, orgAdmin(), Options{SavedFilters: map[string]string{"tenants": "ns:tenant-*"}}, 120, 40)
	src.upsert(fleet()...)
	m.Update(snapshotMsg{src.Snapshot()})

	// ns with tab completion of a namespace seen on the board.
	press(m, ":")
	typeText(m, "ns hanzo-te")
	press(m, "tab")
	if v := plainView(m); !strings.Contains(v, ":ns hanzo-testnet") {
		t.Fatalf("tab did not complete the namespace:\n%s", v)
	}
	press(m, "enter")
	if got, want := shownApps(m), []string{"hanzo-testnet/explorer", "hanzo-testnet/queue"}; !slices.Equal(got, want) {
		t.Errorf(":ns hanzo-testnet shows %v, want %v", got, want)
	}
	if m.filter.text() != "namespace:hanzo-testnet" || m.dialogs.top() != nil {
		t.Errorf("filter %q, dialog %v; want the query applied and the prompt closed", m.filter.text(), m.dialogs.top())
	}

	// A saved filter by name.
	press(m, ":")
	typeText(m, "tenants")
	press(m, "enter")
	if got := shownApps(m); !slices.Equal(got, []string{"tenant-acme/console"}) {
		t.Errorf(":tenants shows %v", got)
	}

	// ctx: the cluster term.
	press(m, ":")
	typeText(m, "ctx "+m.board.snap.Rows()[0].Cluster)
	press(m, "enter")
	if got := shownApps(m); len(got) != len(fleet()) || m.filter.text() != "cluster:"+m.board.snap.Rows()[0].Cluster {
		t.Errorf(":ctx shows %v with filter %q", got, m.filter.text())
	}

	// Something unknown keeps the prompt open and says why; esc closes it.
	press(m, ":")
	typeText(m, "nope")
	press(m, "enter")
	if v := plainView(m); m.dialogs.top() == nil || !strings.Contains(v, "no saved filter nope") {
		t.Errorf("unknown jump:\n%s", v)
	}
	press(m, "esc")
	if m.dialogs.top() != nil || m.filter.text() != "cluster:"+m.board.snap.Rows()[0].Cluster {
		t.Errorf("esc: dialog %v, filter %q; want closed, filter unchanged", m.dialogs.top(), m.filter.text())
	}
}

// ":q" quits as in k9s (and vim); a saved filter named q is applied instead.
func TestJumpQuits(t *testing.T) {
	for _, word := range []string{"q", "quit", " q! "} {
		m, _ := newTestModel(t, nil, nil, Options{}, 100, 30)
		press(m, ":")
		typeText(m, word)
		_, cmd := m.Update(keyMsg("enter"))
		if cmd == nil {
			t.Fatalf(":%s: no command", word)
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Errorf(":%s does not quit", word)
		}
	}
	m, _ := newTestModel(t, nil, nil, Options{SavedFilters: map[string]string{"q": "sev:red"}}, 100, 30)
	press(m, ":")
	typeText(m, "q")
	press(m, "enter")
	if m.filter.text() != "sev:red" {
		t.Errorf("a saved filter named q: filter %q, want it applied", m.filter.text())
	}
}
