package ui

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/logbuf"
	"github.com/hanzoai/driftboard/ui/dialog"
)

// l streams the one pod's app container: lines arrive, a hostile one is
// escaped, q goes back and cancels the request's context.
func TestLogViewStreamsAndStopsOnBack(t *testing.T) {
	src := &logSource{pods: []model.LogPod{onePod("web-1")}}
	d := logsOn(t, src, Options{}, 100, 16)
	d.press("l")
	d.until("the stream opens", func() bool { return len(src.streams()) == 1 && d.m.logs.Streaming() })
	s := src.last(t)
	if want := (model.LogRequest{Pod: "web-1", Container: "web", Follow: true, Tail: DefaultLogLines, MaxLines: DefaultLogLines}); s.req != want {
		t.Errorf("request %+v, want %+v", s.req, want)
	}
	d.push(s.feed, "starting web", "listening on :8080", "evil \x1b]52;c;cHduZWQ=\x07 \x1b[2J end", "tab\tseparated")
	raw := d.m.View().Content
	if strings.Contains(raw, "\x1b]52") || strings.Contains(raw, "\x07") || strings.Contains(raw, "\x1b[2J") {
		t.Errorf("a hostile log line reached the terminal: %q", raw)
	}
	// Each line is sanitised as it arrives, not only by the frame's guard.
	if kept := strings.Join(d.m.logs.Lines().Lines(), "\n"); strings.ContainsAny(kept, "\x1b\x07") {
		t.Errorf("a kept log line has its control characters: %q", kept)
	}
	checkGolden(t, "logs_w100", plainView(d.m))

	d.press("q")
	if d.m.screen != screenBoard {
		t.Fatalf("q: screen %d, want the board", d.m.screen)
	}
	if !ended(s.ctx) {
		t.Fatal("q left the log stream's request open")
	}
}

// Several pods: a picker opens on the newest pod with a problem; esc from
// the log view opened in the detail goes back to the detail.
func TestLogViewPicksTheNewestPodWithProblems(t *testing.T) {
	old, crashing, newer := onePod("web-a"), onePod("web-b"), onePod("web-c")
	crashing.Ready, crashing.Restarts, crashing.Waiting = false, 3, "CrashLoopBackOff"
	crashing.Containers = []string{"web", "sidecar"}
	newer.Created = t0
	src := &logSource{pods: []model.LogPod{old, crashing, newer}}
	d := logsOn(t, src, Options{}, 100, 20)
	d.press("enter", "l")
	d.until("the picker opens", func() bool { return dialog.Find[*dialog.Picker](d.m.dialogs) != nil })
	v := plainView(d.m)
	if !strings.Contains(v, "› web-b · web") || !strings.Contains(v, "CrashLoopBackOff · 3 restarts") || !strings.Contains(v, "web-b · sidecar") {
		t.Errorf("picker:\n%s", v)
	}
	d.press("down", "enter")
	d.until("the chosen stream opens", func() bool { return len(src.streams()) == 1 })
	if r := src.last(t).req; r.Pod != "web-b" || r.Container != "sidecar" {
		t.Errorf("picked %s/%s, want web-b/sidecar", r.Pod, r.Container)
	}
	d.press("c")
	p := dialog.Find[*dialog.Picker](d.m.dialogs)
	if p == nil {
		t.Fatal("c did not reopen the picker")
	}
	if _, i := p.Selected(); i != 2 {
		t.Fatalf("c reopened the picker on item %d, not on the current container (2)", i)
	}
	d.press("esc", "esc")
	if d.m.screen != screenDetail {
		t.Errorf("esc from logs opened in the detail: screen %d", d.m.screen)
	}
	if !ended(src.last(t).ctx) {
		t.Error("leaving the logs left the stream open")
	}
}

// p reopens on the previous instance; f off ends the request and keeps the
// lines, f on reopens it; w wraps a long line.
func TestLogViewSwitches(t *testing.T) {
	src := &logSource{pods: []model.LogPod{onePod("web-1")}}
	d := logsOn(t, src, Options{}, 80, 16)
	d.press("l")
	d.until("stream", func() bool { return d.m.logs.Streaming() })
	first := src.last(t)
	d.press("p")
	d.until("previous stream", func() bool { return len(src.streams()) == 2 && d.m.logs.Streaming() })
	if !ended(first.ctx) || !src.last(t).req.Previous {
		t.Fatalf("p: old stream ended %v, new request %+v", ended(first.ctx), src.last(t).req)
	}
	prev := src.last(t)
	d.push(prev.feed, "panic: nil map", strings.Repeat("x", 150)+"END")
	if v := plainView(d.m); !strings.Contains(v, "previous instance") || !strings.Contains(v, "panic: nil map") || strings.Contains(v, "END") {
		t.Errorf("previous, unwrapped:\n%s", v)
	}
	d.press("w")
	if v := plainView(d.m); !strings.Contains(v, "xEND") || !strings.Contains(v, "wrap on") {
		t.Errorf("w did not wrap the long line:\n%s", v)
	}
	d.press("f")
	if !ended(prev.ctx) || len(src.streams()) != 2 {
		t.Fatalf("f off: the request is still open or another was made (%d)", len(src.streams()))
	}
	if v := plainView(d.m); !strings.Contains(v, "panic: nil map") || !strings.Contains(v, "not following") {
		t.Errorf("f off keeps the lines and says so:\n%s", v)
	}
	d.press("f")
	d.until("f on reopens", func() bool { return len(src.streams()) == 3 && d.m.logs.Streaming() })
	if r := src.last(t).req; !r.Follow || !r.Previous {
		t.Errorf("f on: %+v", r)
	}
}

// The view keeps at most LogLines lines, says how many were dropped, and a
// search finds, highlights and steps through what is kept.
func TestLogViewRingAndSearch(t *testing.T) {
	src := &logSource{pods: []model.LogPod{onePod("web-1")}}
	d := logsOn(t, src, Options{LogLines: 10}, 100, 16)
	d.press("l")
	d.until("stream", func() bool { return d.m.logs.Streaming() })
	var lines []string
	for i := range 25 {
		word := "ok"
		if i%4 == 0 {
			word = "ERROR"
		}
		lines = append(lines, fmt.Sprintf("line %02d %s", i, word))
	}
	d.push(src.last(t).feed, lines...)
	if n := d.m.logs.Lines().Len(); n != 10 {
		t.Fatalf("the ring holds %d lines, want 10", n)
	}
	if v := plainView(d.m); !strings.Contains(v, "▲ 15 older lines dropped (keeps 10)") || strings.Contains(v, "line 14") || !strings.Contains(v, "line 24") {
		t.Errorf("after 25 lines into 10:\n%s", v)
	}
	d.press("/")
	for _, r := range "error" {
		d.press(string(r))
	}
	if v := plainView(d.m); !strings.Contains(v, "/error█") {
		t.Errorf("typing the search:\n%s", v)
	}
	d.press("enter")
	if got := d.m.logs.Match(); got != 24 {
		t.Errorf("search from the tail found line %d, want the newest match 24", got)
	}
	d.press("N")
	if got := d.m.logs.Match(); got != 20 || d.m.logs.Tailing() {
		t.Errorf("N: match %d (tail %v), want 20", got, d.m.logs.Tailing())
	}
	if v := plainView(d.m); !strings.Contains(v, "line 20 ERROR") || strings.Contains(v, "line 17") {
		t.Errorf("N scrolled to line 20:\n%s", v)
	}
	d.press("N", "N")
	if v := plainView(d.m); d.m.logs.Match() != 16 || !strings.Contains(v, "no earlier match for /error") {
		t.Errorf("past the oldest kept match:\n%s", v)
	}
	if raw := d.m.View().Content; !strings.Contains(raw, d.m.st.Selected.Pre+"ERROR"+d.m.st.Selected.Post) {
		t.Errorf("the match is not highlighted: %q", raw)
	}
	d.press("n", "G")
	if !d.m.logs.Tailing() {
		t.Error("G did not stick to the last line")
	}
}

// Read-only mode keeps logs, the key is rebindable, and a failed LIST or
// stream is said in words.
func TestLogViewReadOnlyRebindAndErrors(t *testing.T) {
	src := &logSource{pods: []model.LogPod{onePod("web-1")}, openErr: errors.New("logs of pod web-1: previous terminated container \"web\" not found")}
	d := logsOn(t, src, Options{ReadOnly: true, Keys: map[string][]string{"logs": {"v"}}}, 100, 16)
	d.press("l")
	if d.m.screen == screenLogs {
		t.Fatal("l still opens logs after logs: [v]")
	}
	d.press("v")
	d.until("the stream fails", func() bool { return d.m.logs.Err() != nil })
	if v := plainView(d.m); !strings.Contains(v, `could not read the logs: logs of pod web-1: previous terminated container "web" not found`) {
		t.Errorf("open error:\n%s", v)
	}
	// The action menu offers the logs too.
	d.press("q", "a")
	if v := plainView(d.m); !strings.Contains(v, "Logs of its pods  v · read-only") {
		t.Errorf("action menu:\n%s", v)
	}
	d.press("down", "down", "enter")
	d.until("logs from the action menu", func() bool { return d.m.screen == screenLogs && d.m.logs.Err() != nil })
	d.press("q")
	src.podsErr = errors.New("list pods: Kubernetes refused: frank may not list pods in namespace hanzo")
	d.press("v")
	d.until("the LIST fails", func() bool { return d.m.logs.Err() != nil })
	if v := plainView(d.m); !strings.Contains(v, "could not read the logs: list pods: Kubernetes refused") {
		t.Errorf("LIST error:\n%s", v)
	}
	if help := strings.Join(d.m.helpKeyBlocks(200), "\n"); !strings.Contains(help, "the pods' logs") {
		t.Errorf("help does not offer the logs key:\n%s", help)
	}
}

// A narrow terminal: the header, a wrapped long line, the dropped notice
// and the hint are fitted to 60 columns.
func TestLogViewGoldenNarrow(t *testing.T) {
	src := &logSource{pods: []model.LogPod{onePod("web-7f9c4-x2x9z")}}
	d := logsOn(t, src, Options{LogLines: 10}, 60, 16)
	d.press("l")
	d.until("stream", func() bool { return d.m.logs.Streaming() })
	var lines []string
	for i := range 12 {
		lines = append(lines, fmt.Sprintf("2026-12-01T08:%02d:00Z INFO  GET /healthz 200 %dms", i, i+3))
	}
	lines = append(lines, "2026-12-01T08:12:00Z ERROR upstream payments.hanzo.svc:8443 refused the connection after 3 attempts; giving up on this request")
	d.push(src.last(t).feed, lines...)
	d.press("w")
	checkGolden(t, "logs_w60_wrap", plainView(d.m))
}

// Scrolled up while following, new lines are counted below the view, not
// jumped to; G sticks to the latest again.
func TestLogViewCountsLinesBelow(t *testing.T) {
	src := &logSource{pods: []model.LogPod{onePod("web-1")}}
	d := logsOn(t, src, Options{}, 100, 12)
	d.press("l")
	d.until("stream", func() bool { return d.m.logs.Streaming() })
	var lines []string
	for i := range 30 {
		lines = append(lines, fmt.Sprintf("line %02d", i))
	}
	d.push(src.last(t).feed, lines...)
	d.press("g")
	d.push(src.last(t).feed, "line 30", "line 31")
	v := plainView(d.m)
	if !strings.Contains(v, "line 00") || strings.Contains(v, "line 31") || !strings.Contains(v, "↓ 24 more lines below · G/end the latest") {
		t.Errorf("scrolled to the top while lines arrive:\n%s", v)
	}
	d.press("G")
	if v := plainView(d.m); !strings.Contains(v, "line 31") || strings.Contains(v, "more lines below") {
		t.Errorf("G:\n%s", v)
	}
	d.press("k") // one line up: one line below, in the singular
	if v := plainView(d.m); !strings.Contains(v, "↓ 1 more line below") {
		t.Errorf("one line up:\n%s", v)
	}
}

// Escaping makes a hostile 16 KiB line 64 KiB: 5,000 of them were 320 MiB
// in the view. It is bounded by bytes as well as by lines, and says so.
func TestLogViewBoundedByBytes(t *testing.T) {
	src := &logSource{pods: []model.LogPod{onePod("web-1")}}
	d := logsOn(t, src, Options{}, 100, 16)
	d.press("l")
	d.until("stream", func() bool { return d.m.logs.Streaming() })
	line := strings.Repeat("\x01", 16<<10)
	for range 8 { // 400 lines, 25 MiB once escaped, in batches below the feed's own bound
		lines := make([]string, 50)
		for i := range lines {
			lines[i] = line
		}
		d.push(src.last(t).feed, lines...)
	}
	if b := d.m.logs.Lines().Bytes(); b > logbuf.MaxBytes {
		t.Errorf("the view holds %d MiB of text", b>>20)
	}
	if v := plainView(d.m); !strings.Contains(v, "older lines dropped (keeps 5000 lines or 8 MiB)") {
		t.Errorf("no notice of the lines the byte bound dropped:\n%s", v)
	}
}
