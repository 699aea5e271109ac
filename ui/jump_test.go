package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/hanzoai/driftboard/ui/dialog"
)

func shownApps(m *Model) []string {
	var out []string
	for _, r := range m.board.AllRows() {
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
	if m.filter.Text() != "namespace:hanzo-testnet" || m.dialogs.Top() != nil {
		t.Errorf("filter %q, dialog %v; want the query applied and the prompt closed", m.filter.Text(), m.dialogs.Top())
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
	typeText(m, "ctx "+m.board.Snap().Rows()[0].Cluster)
	press(m, "enter")
	if got := shownApps(m); len(got) != len(fleet()) || m.filter.Text() != "cluster:"+m.board.Snap().Rows()[0].Cluster {
		t.Errorf(":ctx shows %v with filter %q", got, m.filter.Text())
	}

	// Something unknown keeps the prompt open and says why; esc closes it.
	press(m, ":")
	typeText(m, "nope")
	press(m, "enter")
	if v := plainView(m); m.dialogs.Top() == nil || !strings.Contains(v, "no saved filter nope") {
		t.Errorf("unknown jump:\n%s", v)
	}
	press(m, "esc")
	if m.dialogs.Top() != nil || m.filter.Text() != "cluster:"+m.board.Snap().Rows()[0].Cluster {
		t.Errorf("esc: dialog %v, filter %q; want closed, filter unchanged", m.dialogs.Top(), m.filter.Text())
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
	if m.filter.Text() != "sev:red" {
		t.Errorf("a saved filter named q: filter %q, want it applied", m.filter.Text())
	}
}

// ":ns" alone lists the namespaces the board has rows for, with counts, as
// k9s' ":ns" does; choosing one applies it. ":ns NAME" is unchanged (above).
func TestJumpAlonePicksAName(t *testing.T) {
	m, _ := newTestModel(t, nil, nil, Options{}, 120, 40)
	press(m, ":")
	typeText(m, "ns")
	press(m, "enter")
	p := dialog.Find[*dialog.Picker](m.dialogs)
	if p == nil || dialog.Find[*dialog.Jump](m.dialogs) != nil {
		t.Fatalf(":ns alone should replace the prompt with a list; dialogs %v", m.dialogs)
	}
	if v := plainView(m); !strings.Contains(v, "Namespaces on the board (5)") || !strings.Contains(v, "hanzo-testnet  2 rows") {
		t.Fatalf("the list should name each namespace with its rows:\n%s", v)
	}
	press(m, "j", "j", "j", "enter") // hanzo, hanzo-devnet, hanzo-mainnet, hanzo-testnet
	if got, want := shownApps(m), []string{"hanzo-testnet/explorer", "hanzo-testnet/queue"}; !slices.Equal(got, want) || m.dialogs.Top() != nil {
		t.Fatalf("picked hanzo-testnet: rows %v (want %v), dialog %v", got, want, m.dialogs.Top())
	}
	// Opened again, the list starts on the namespace applied.
	press(m, ":")
	typeText(m, "ns")
	press(m, "enter")
	if v := plainView(m); !strings.Contains(v, "› hanzo-testnet") {
		t.Fatalf("the list should start on the applied namespace:\n%s", v)
	}
	press(m, "esc")
	if m.dialogs.Top() != nil || m.filter.Text() != "namespace:hanzo-testnet" {
		t.Fatalf("esc: dialog %v, filter %q; want closed, filter kept", m.dialogs.Top(), m.filter.Text())
	}
	// ":ctx" alone: the clusters, a connected one without rows too.
	press(m, ":")
	typeText(m, "ctx")
	press(m, "enter")
	if v := plainView(m); !strings.Contains(v, "Contexts on the board (1)") || !strings.Contains(v, "prod  "+strconv.Itoa(len(fleet()))+" rows") {
		t.Fatalf(":ctx alone should list the contexts with their rows:\n%s", v)
	}
}

// pickAmong25Namespaces opens ":ns" alone on a board of 25 namespaces (the
// test fleet's 5 and zz-00 to zz-19) in a w×h terminal.
func pickAmong25Namespaces(t *testing.T, w, h int) (*Model, *dialog.Picker) {
	t.Helper()
	m, src := newTestModel(t, nil, nil, Options{}, w, h)
	for i := range 20 {
		src.upsert(app{ns: fmt.Sprintf("zz-%02d", i), name: "api", declared: "v1.0.0", running: "v1.0.0", ready: 1, updated: 1}.build())
	}
	m.Update(snapshotMsg{src.Snapshot()})
	press(m, ":")
	typeText(m, "ns")
	press(m, "enter")
	p := dialog.Find[*dialog.Picker](m.dialogs)
	if p == nil {
		t.Fatal(":ns alone opened no picker")
	}
	return m, p
}

// A list longer than the picker shows scrolls with the cursor and says how
// many are above and below.
func TestJumpPickerScrolls(t *testing.T) {
	m, _ := pickAmong25Namespaces(t, 120, 40)
	v := plainView(m)
	if !strings.Contains(v, "↓ 13 more") || strings.Contains(v, "zz-19 ") { // the board behind shows "zz-19│"
		t.Fatalf("25 namespaces: the first 12 and how many more:\n%s", v)
	}
	press(m, "end")
	v = plainView(m)
	if !strings.Contains(v, "› zz-19") || !strings.Contains(v, "↑ 13 more") || strings.Contains(v, "↓") {
		t.Fatalf("end: the last namespace chosen and shown:\n%s", v)
	}
	press(m, "enter")
	if got := shownApps(m); !slices.Equal(got, []string{"zz-19/api"}) {
		t.Fatalf("picked zz-19: rows %v", got)
	}
}

// On a low terminal the picker shows fewer names rather than have the
// overlay cut its middle: the name under the cursor is always on screen.
func TestJumpPickerFitsALowTerminal(t *testing.T) {
	m, p := pickAmong25Namespaces(t, 70, 14)
	for i := 0; i < 10; i++ {
		v := plainView(m)
		it, _ := p.Selected()
		if strings.Contains(v, "more lines: a taller") || !strings.Contains(v, "› "+it.Label+" ") {
			t.Fatalf("cursor on %s, not on screen (or the picker cut):\n%s", it.Label, v)
		}
		press(m, "j")
	}
	// Taller again: the whole window of names, 6 + 12 + 7 = 25.
	m.Update(tea.WindowSizeMsg{Width: 70, Height: 40})
	if v := plainView(m); !strings.Contains(v, "↑ 6 more") || !strings.Contains(v, "↓ 7 more") {
		t.Fatalf("at 40 lines the picker shows 12 names again:\n%s", v)
	}
}

// A context whose name the query reads otherwise (a space, a glob) is
// picked as that context alone.
func TestJumpPickerQuotesTheName(t *testing.T) {
	m, src := newTestModel(t, nil, nil, Options{}, 120, 40)
	for _, c := range []string{"my ctx", "prod[1]", "prod1"} {
		src.upsert(app{cluster: c, ns: "hanzo", name: "api", declared: "v1.0.0", running: "v1.0.0", ready: 1, updated: 1}.build())
	}
	m.Update(snapshotMsg{src.Snapshot()})
	for _, c := range []string{"my ctx", "prod[1]"} {
		press(m, ":")
		typeText(m, "ctx")
		press(m, "enter")
		p := dialog.Find[*dialog.Picker](m.dialogs)
		if p == nil {
			t.Fatal(":ctx alone opened no picker")
		}
		for it, _ := p.Selected(); it.Label != c; it, _ = p.Selected() {
			press(m, "j")
		}
		press(m, "enter")
		var got []string
		for _, r := range m.board.AllRows() {
			got = append(got, r.Cluster+"/"+r.Namespace+"/"+r.App)
		}
		if want := []string{c + "/hanzo/api"}; !slices.Equal(got, want) {
			t.Errorf("picked %s: filter %q shows %v, want %v", c, m.filter.Text(), got, want)
		}
	}
}

// A jump shows what it names whatever the e key's env was, and ':env NAME'
// is that key's own env: ':ns hanzo-testnet' under env=main showed none of
// the rows its picker counted, and e after ':env test' showed none at all
// (env:test and env=main).
func TestJumpOverridesTheEnvKey(t *testing.T) {
	m, src := newTestModel(t, &fakeRestarter{}, orgAdmin(), Options{}, 120, 40)
	src.upsert(fleet()...)
	m.Update(snapshotMsg{src.Snapshot()})
	press(m, "e") // env=main
	press(m, ":")
	typeText(m, "ns")
	press(m, "enter")
	for i := 0; i < 10 && !strings.Contains(plainView(m), "› hanzo-testnet"); i++ {
		press(m, "down")
	}
	press(m, "enter")
	if got, want := shownApps(m), []string{"hanzo-testnet/explorer", "hanzo-testnet/queue"}; !slices.Equal(got, want) {
		t.Fatalf("picking hanzo-testnet (2 rows) under env=main shows %v, want %v:\n%s", got, want, plainView(m))
	}

	press(m, ":")
	typeText(m, "env test")
	press(m, "enter")
	if got, want := shownApps(m), []string{"hanzo-testnet/explorer", "hanzo-testnet/queue"}; !slices.Equal(got, want) || m.board.Env() != "test" {
		t.Fatalf(":env test shows %v (env key %q), want %v", got, m.board.Env(), want)
	}
	press(m, "e") // test → dev
	if got := shownApps(m); m.board.Env() != "dev" || len(got) == 0 || !strings.HasPrefix(got[0], "hanzo-devnet/") {
		t.Fatalf("e after :env test: env %q shows %v, want dev's rows\n%s", m.board.Env(), got, plainView(m))
	}
	press(m, ":")
	typeText(m, "env")
	press(m, "enter")
	if v := plainView(m); !strings.Contains(v, "› dev") {
		t.Fatalf(":env should start on the env shown (dev):\n%s", v)
	}
}
