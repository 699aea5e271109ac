package ui

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/detail"
)

func dg(c byte) string { return "sha256:" + strings.Repeat(string(c), 64) }

// digestRestarter is a Restarter that also reads pods, as kube.Fleet does.
type digestRestarter struct {
	*fakeRestarter
	mu       sync.Mutex
	reads    []model.Key
	running  []string
	noDigest int // pods found besides those running the digests, that report none
	err      error
}

func (d *digestRestarter) RunningDigests(_ context.Context, k model.Key) (model.PodDigests, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.reads = append(d.reads, k)
	return model.PodDigests{Pods: len(d.running) + d.noDigest, NoDigest: d.noDigest, Digests: d.running}, d.err
}

func (d *digestRestarter) readCount() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.reads)
}

// floatingApp is "web" on a floating tag whose registry digest is tagDigest.
func floatingApp(tagDigest string, ready int32) model.AppView {
	v := app{ns: "hanzo", name: "web", declared: "main", running: "main", latest: "v1.0.0", ready: ready, updated: ready, assets: 1}.build()
	v.Release.TagDigest = tagDigest
	return v
}

// digestMsgs runs cmd (batches included) and returns the digest answers;
// commands that block (waiting for changes) are dropped.
func digestMsgs(cmd tea.Cmd) []detail.DigestsMsg {
	if cmd == nil {
		return nil
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	var out []detail.DigestsMsg
	select {
	case msg := <-ch:
		switch msg := msg.(type) {
		case tea.BatchMsg:
			for _, c := range msg {
				out = append(out, digestMsgs(c)...)
			}
		case detail.DigestsMsg:
			out = append(out, msg)
		}
	case <-time.After(50 * time.Millisecond):
	}
	return out
}

func openWeb(t *testing.T, r actions, tagDigest string) (*Model, *storeSource, []detail.DigestsMsg) {
	t.Helper()
	m, src := newTestModel(t, r, orgAdmin(), Options{}, 100, 60)
	src.upsert(floatingApp(tagDigest, 2))
	m.Update(snapshotMsg{src.Snapshot()})
	selectApp(t, m, "web")
	_, cmd := m.Update(keyMsg("enter"))
	return m, src, digestMsgs(cmd)
}

func TestDetailShowsRunningDigestNotTagDigest(t *testing.T) {
	rd := &digestRestarter{fakeRestarter: allowed(), running: []string{dg('a'), dg('b')}}
	m, _, msgs := openWeb(t, rd, dg('b'))
	if len(msgs) != 1 || msgs[0].Key != (model.Key{Cluster: "prod", Namespace: "hanzo", Name: "web"}) {
		t.Fatalf("opening the detail read %d times: %+v", len(msgs), msgs)
	}
	if v := plainView(m); !strings.Contains(v, "reading pods…") {
		t.Errorf("while reading:\n%s", v)
	}
	m.Update(msgs[0])
	v := plainView(m)
	for _, want := range []string{
		"tag digest      " + dg('b'),
		"running digests " + dg('a') + " ",
		"                " + dg('b') + " ",
		"▲ running digest ≠ tag digest (running sha256:aaaaaaaaaaaa, sha256:bbbbbbbbbbbb, tag",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("detail lacks %q:\n%s", want, v)
		}
	}
}

func TestDetailDigestsAgree(t *testing.T) {
	rd := &digestRestarter{fakeRestarter: allowed(), running: []string{dg('b')}}
	m, _, msgs := openWeb(t, rd, dg('b'))
	for _, msg := range msgs {
		m.Update(msg)
	}
	if v := plainView(m); !strings.Contains(v, "✓ the pods run the digest the tag points at") || strings.Contains(v, "≠") {
		t.Errorf("agreeing digests:\n%s", v)
	}
}

// An answer without digests says whether the workload had no pods or pods
// that reported none; digests of some pods only say how many did not.
func TestDetailDigestsTellNoPodsFromPodsWithoutDigests(t *testing.T) {
	for _, tc := range []struct {
		name     string
		rd       *digestRestarter
		want     string
		wantNone bool // no ✓ verdict: some pod's digest is not known
	}{
		{"no pods", &digestRestarter{fakeRestarter: allowed()}, "running digests none: no pods (none running or pending)", true},
		{"pods without digests", &digestRestarter{fakeRestarter: allowed(), noDigest: 2},
			"running digests none: 2 pods, none reports a registry digest (not pulled yet, or a local image)", true},
		{"some pods without", &digestRestarter{fakeRestarter: allowed(), running: []string{dg('b')}, noDigest: 1},
			"1 of 2 pods reports no registry digest", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, _, msgs := openWeb(t, tc.rd, dg('b'))
			for _, msg := range msgs {
				m.Update(msg)
			}
			v := plainView(m)
			if !strings.Contains(v, tc.want) {
				t.Errorf("detail lacks %q:\n%s", tc.want, v)
			}
			if strings.Contains(v, "✓ the pods run") == tc.wantNone {
				t.Errorf("verdict with %s:\n%s", tc.name, v)
			}
		})
	}
}

func TestDetailDigestsErrorsAndUnknowns(t *testing.T) {
	rd := &digestRestarter{fakeRestarter: allowed(), err: errors.New("list pods: forbidden")}
	m, _, msgs := openWeb(t, rd, "")
	for _, msg := range msgs {
		m.Update(msg)
	}
	v := plainView(m)
	if !strings.Contains(v, "running digests could not read: list pods: forbidden") || !strings.Contains(v, "tag digest      not read") {
		t.Errorf("error:\n%s", v)
	}

	// A source that cannot read pods says so, with why.
	m, _, msgs = openWeb(t, allowed(), dg('b'))
	for _, msg := range msgs {
		m.Update(msg)
	}
	if !strings.Contains(plainView(m), "running digests pod digests: not available from this source (the board has no fleet)") {
		t.Errorf("not available:\n%s", plainView(m))
	}
}

// Answers for another app, or for an earlier opening, are ignored.
func TestDetailIgnoresStaleDigests(t *testing.T) {
	rd := &digestRestarter{fakeRestarter: allowed(), running: []string{dg('a')}}
	m, _, msgs := openWeb(t, rd, dg('b'))
	first := msgs[0]
	m.Update(detail.DigestsMsg{Key: model.Key{Cluster: "prod", Namespace: "hanzo", Name: "kms"}, Seq: first.Seq, Running: model.PodDigests{Pods: 1, Digests: []string{dg('c')}}})
	if m.detail.DigestsRead() {
		t.Fatal("an answer for kms was taken for web")
	}
	press(m, "esc")
	_, cmd := m.Update(keyMsg("enter")) // reopened: a new read
	second := digestMsgs(cmd)
	if len(second) != 1 || second[0].Seq == first.Seq {
		t.Fatalf("reopen: %+v (first seq %d)", second, first.Seq)
	}
	m.Update(first)
	if m.detail.DigestsRead() {
		t.Fatal("the first opening's answer was taken after reopening")
	}
	m.Update(second[0])
	if !m.detail.DigestsRead() || !strings.Contains(plainView(m), "running digests "+dg('a')) {
		t.Fatalf("current answer not shown:\n%s", plainView(m))
	}
}

// While open, a snapshot that changes the pods re-reads; one that does not,
// does not; a change during a read re-reads once after it.
func TestDetailRereadsWhenPodsChange(t *testing.T) {
	rd := &digestRestarter{fakeRestarter: allowed(), running: []string{dg('a')}}
	m, src, msgs := openWeb(t, rd, dg('b'))
	m.Update(msgs[0])

	src.upsert(floatingApp(dg('c'), 2)) // the tag moved: the pods did not
	_, cmd := m.Update(snapshotMsg{src.Snapshot()})
	if got := digestMsgs(cmd); len(got) != 0 {
		t.Fatalf("re-read although the pods did not change: %+v", got)
	}
	if v := plainView(m); !strings.Contains(v, "tag digest      "+dg('c')) {
		t.Errorf("new tag digest not shown:\n%s", v)
	}

	src.upsert(floatingApp(dg('c'), 1)) // a pod went unready
	_, cmd = m.Update(snapshotMsg{src.Snapshot()})
	reread := digestMsgs(cmd)
	if len(reread) != 1 {
		t.Fatalf("pods changed: %d reads", len(reread))
	}
	if v := plainView(m); !strings.Contains(v, "running digests "+dg('a')) || strings.Contains(v, "reading pods") {
		t.Errorf("a re-read must keep the last answer on screen:\n%s", v)
	}
	src.upsert(floatingApp(dg('c'), 0)) // and another, while the read runs
	_, cmd = m.Update(snapshotMsg{src.Snapshot()})
	if got := digestMsgs(cmd); len(got) != 0 {
		t.Fatalf("a second read while one runs: %+v", got)
	}
	_, cmd = m.Update(reread[0])
	if got := digestMsgs(cmd); len(got) != 1 {
		t.Fatalf("the change during the read was not read after it: %d", len(got))
	}
	if n := rd.readCount(); n != 3 {
		t.Errorf("reads %d, want 3 (open, change, change during read)", n)
	}

	press(m, "esc") // closed: snapshots read nothing
	src.upsert(floatingApp(dg('c'), 2))
	_, cmd = m.Update(snapshotMsg{src.Snapshot()})
	if got := digestMsgs(cmd); len(got) != 0 {
		t.Fatalf("read with the detail closed: %+v", got)
	}
}

func TestGoldenDetailDigests(t *testing.T) {
	checkGolden(t, "detail_digests_w100", goldenDetailOfWeb(t, floatingApp(dg('b'), 2), dg('a')))
}

// goldenDetailOfWeb is the golden board's detail of v (an App named web)
// once its pods' digests (running) are read.
func goldenDetailOfWeb(t *testing.T, v model.AppView, running ...string) string {
	t.Helper()
	m := goldenModel(t, 100, true, Options{})
	m.fleet = fleetOf(storeOf(m), &digestRestarter{fakeRestarter: allowed(), running: running})
	storeOf(m).upsert(v)
	m.Update(snapshotMsg{m.fleet.Snapshot()})
	selectApp(t, m, "web")
	_, cmd := m.Update(keyMsg("enter"))
	for _, msg := range digestMsgs(cmd) {
		m.Update(msg)
	}
	return plainView(m)
}
