package ui

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
)

// -update rewrites the golden files. teatest's golden package declares the
// same flag when the smoke test links it in; share it then.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files in testdata/")
	}
}

func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// checkGolden compares got with testdata/<name>.golden (or rewrites it).
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if updating() {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v (run: go test ./ui -run %s -update)", path, err, t.Name())
	}
	if string(want) != got {
		t.Fatalf("%s differs (go test ./ui -run %s -update to accept)\n--- want\n%s\n--- got\n%s", path, t.Name(), want, got)
	}
}

// goldenModel is the fixture fleet across two clusters, one of them
// reconnecting (its rows stale).
func goldenModel(t *testing.T, width int, dark bool, opts Options) *Model {
	t.Helper()
	opts.DarkBackground = &dark
	m, src := newTestModel(t, allowed(), orgAdmin(), opts, width, 24)
	src.upsert(
		app{cluster: "stage", ns: "hanzo-devnet", name: "iam", declared: "v1.5.0-rc1", running: "v1.4.0", latest: "v1.4.0", ready: 1, updated: 1, replicas: 1, assets: 1}.build(),
		app{cluster: "stage", ns: "tenant-acme", name: "billing", declared: "v0.3.0", running: "v0.3.0", latest: "v0.3.0", ready: 1, updated: 1, replicas: 1, assets: 2}.build(),
		// ok by the drift contract, but its Deployment is missing: "! no workload"
		app{ns: "hanzo", name: "vault", declared: "v1.1.0", latest: "v1.1.0", noWorkload: true, assets: 1}.build(),
		// GitHub held the check back: unknown, not "no release"
		app{ns: "hanzo", name: "search", declared: "v0.7.0", running: "v0.7.0", ready: 2, updated: 2, release: model.ReleaseRateLimited}.build(),
	)
	src.SetReleaseChecks(model.ReleaseChecks{Anonymous: true, LimitedUntil: t0.Add(5 * time.Minute), Remaining: 0, Limit: 60})
	src.SetClusters([]model.ClusterState{
		{Name: "prod", Phase: model.ConnLive, Since: t0.Add(-time.Hour)},
		{Name: "stage", Phase: model.ConnReconnecting, Since: t0.Add(-2 * time.Minute), Reason: "watch closed"},
	})
	src.SetOffline("stage", true)
	m.Update(snapshotMsg{src.Snapshot()})
	return m
}

func TestGoldenBoard(t *testing.T) {
	for _, w := range []int{60, 70, 100, 160} {
		for _, dark := range []bool{true, false} {
			bg := map[bool]string{true: "dark", false: "light"}[dark]
			t.Run(fmt.Sprintf("w%d_%s", w, bg), func(t *testing.T) {
				m := goldenModel(t, w, dark, Options{})
				got := plainView(m)
				// Every line is laid out to the full width (bars and the
				// cursor's row fill it), before the frame drops what no cell shows.
				for i, l := range strings.Split(ansi.Strip(m.guard(m.render())), "\n") {
					if lw := format.TextWidth(l); lw != w {
						t.Errorf("line %d is %d columns wide, want %d: %q", i, lw, w, l)
					}
				}
				checkGolden(t, fmt.Sprintf("board_w%d_%s", w, bg), got)
			})
		}
	}
}

func TestGoldenScreens(t *testing.T) {
	cases := []struct {
		name string
		keys []string
		app  string
		opts Options
	}{
		{"detail_w100", []string{"enter"}, "kms", Options{}},
		{"confirm_main_w100", []string{"r"}, "kms", Options{}},
		{"confirm_readonly_w100", []string{"r"}, "explorer", Options{ReadOnly: true}},
		{"filter_error_w100", []string{"/", "e", "n", "v", ":", "x"}, "iam", Options{}},
		{"help_w100", []string{"?"}, "iam", Options{}},
		{"jump_ns_w100", []string{":", "n", "s", "enter"}, "iam", Options{}},
		{"jump_ctx_w100", []string{":", "c", "t", "x", "enter"}, "iam", Options{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := goldenModel(t, 100, true, c.opts)
			selectApp(t, m, c.app)
			press(m, c.keys...)
			checkGolden(t, c.name, plainView(m))
		})
	}
}

// An unread release is unknown: the row is ? (not red, not ✓), carries
// NR?, and the header counts it and says why checks are starved.
func TestUncheckedReleaseIsNotRed(t *testing.T) {
	m := goldenModel(t, 160, true, Options{})
	var row string
	for _, l := range strings.Split(plainView(m), "\n") {
		if strings.Contains(l, "search") {
			row = l
		}
	}
	if !strings.Contains(row, "? n/a") || !strings.Contains(row, "NR?") || strings.Contains(row, "NR ") {
		t.Errorf("row of an unread release = %q, want ? n/a with NR? and no NR", row)
	}
	head := plainView(m)
	for _, want := range []string{"? 1 unchecked", "1 row waits on release checks", "GitHub rate-limited until 14:05"} {
		if !strings.Contains(head, want) {
			t.Errorf("header lacks %q:\n%s", want, head)
		}
	}
	press(m, "/")
	typeText(m, "search")
	press(m, "enter", "enter")
	detail := plainView(m)
	for _, want := range []string{"release         not read: rate-limited by GitHub", "? release not checked"} {
		if !strings.Contains(detail, want) {
			t.Errorf("detail lacks %q:\n%s", want, detail)
		}
	}
}
