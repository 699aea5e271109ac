package cli

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/changestream"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/query"
	"github.com/hanzoai/driftboard/model/store"
)

// One row, one verdict: every output gives each row of the fleet its one
// golden answer (verdictFleet) — the board's row and detail, its header
// counts and d view, list as table, wide, JSON and YAML, get as text and
// JSON, watch as text and JSON lines (and its alert when a clean row turns
// into this one), the query's sev: and has:, the severity sort and every
// --fail-on exit code.
func TestOneVerdictInEveryOutput(t *testing.T) {
	t.Parallel()
	fleet := verdictFleet()
	st := store.New()
	byName := map[string]verdictCase{}
	for _, c := range fleet {
		st.Upsert(c.row)
		byName[c.name] = c
	}
	live := []model.ClusterState{{Name: "prod", Phase: model.ConnLive, Since: verdictNow}}
	st.SetClusters(live)
	snap := st.Snapshot()
	count := map[string]int{}
	for _, c := range fleet {
		count[c.want]++
	}

	frame := boardFrame(t, st, "")
	for _, c := range fleet {
		if got := labelIn(rowLine(frame, c.name)); got != boardLabel(c.want) {
			t.Errorf("%s: board row shows %q, want %q", c.name, got, boardLabel(c.want))
		}
	}
	for word, n := range count {
		if word == "n/a" {
			if got := unknownCount(frame); got != n {
				t.Errorf("board header counts %d ? rows, want %d:\n%s", got, n, headerOf(frame))
			}
		} else if want := boardLabel(word)[:strings.Index(boardLabel(word), " ")] + " " + strconv.Itoa(n) + " " + word; !strings.Contains(frame, want) {
			t.Errorf("board header lacks %q:\n%s", want, headerOf(frame))
		}
	}
	for _, c := range fleet {
		detail := boardFrame(t, st, "app:"+c.name, "enter")
		if want := boardLabel(c.want) + "  " + c.name; !strings.Contains(detail, want) {
			t.Errorf("%s: the board's detail does not open with %q:\n%s", c.name, want, headerOf(detail))
		}
	}
	drifted := boardFrame(t, st, "", "d")
	for _, c := range fleet {
		if shown := rowLine(drifted, c.name) != ""; shown != (c.want != "ok") {
			t.Errorf("%s: d (drifted only) shows it: %v, want %v", c.name, shown, c.want != "ok")
		}
	}

	for _, out := range []string{"table", "wide", "json", "yaml", "custom-columns=SEV:.verdict,APP:.app",
		`jsonpath={range .apps[*]}{.verdict} {.app}{"\n"}{end}`} {
		text, code := listRun(t, snap, "", listOptions{output: out, failOn: "none"})
		if code != ExitOK {
			t.Errorf("list -o %s --fail-on none exits %d", out, code)
		}
		got := listVerdicts(t, out, text)
		for _, c := range fleet {
			want := c.want
			if out != "table" && out != "wide" {
				want = jsonWord(c.want)
			}
			if got[c.name] != want {
				t.Errorf("%s: list -o %s says %q, want %q", c.name, out, got[c.name], want)
			}
		}
	}

	tr := changestream.NewTracker(query.Query{}, false)
	events := tr.Observe(snap, verdictNow)
	sum := fmt.Sprintf("%d apps: %d red, %d yellow, %d ok", len(fleet), count["red"], count["yellow"], count["ok"])
	if text := changestream.FormatText(events[len(events)-1]); !strings.Contains(text, sum) {
		t.Errorf("watch's summary %q, want %q", text, sum)
	}
	clean := byName["clean"].row
	for _, c := range fleet {
		r := snap.Find(c.row.Key())
		var detail, js bytes.Buffer
		if err := writeDetail(&detail, r, verdictNow); err != nil {
			t.Fatal(err)
		}
		if m := regexp.MustCompile(`(?m)^Severity:\s+(\S+?),?(\s|$)`).FindStringSubmatch(detail.String()); m == nil || m[1] != c.want {
			t.Errorf("%s: get says %q, want Severity: %s", c.name, m, c.want)
		}
		if err := writeJSON(&js, rowWithEvents{AppView: r, Events: []model.Event{}}); err != nil { // get -o json
			t.Fatal(err)
		}
		if got := jsonField(t, js.Bytes(), "verdict"); got != jsonWord(c.want) {
			t.Errorf("%s: get -o json verdict %q, want %q", c.name, got, jsonWord(c.want))
		}
		for _, key := range []string{`"severity"`, `"health"`, `"events": []`} {
			if !bytes.Contains(js.Bytes(), []byte(key)) {
				t.Errorf("%s: get -o json lacks %s beside the verdict:\n%s", c.name, key, js.String())
			}
		}

		ev := eventFor(events, c.name)
		if w := strings.Fields(strings.SplitN(changestream.FormatText(ev), "/"+c.name+" ", 2)[1])[0]; w != c.want {
			t.Errorf("%s: watch text says %q, want %q", c.name, w, c.want)
		}
		if got := watchJSONVerdict(t, ev); got != jsonWord(c.want) {
			t.Errorf("%s: watch -o jsonl verdict %q, want %q", c.name, got, jsonWord(c.want))
		}
		// The alert: a clean row of this name turning into this one.
		was := clean
		was.App, was.ID = c.row.App, c.row.ID
		alert := changestream.NewTracker(query.Query{}, true)
		alert.Observe(liveSnapshot(live, &was), verdictNow)
		evs := alert.Observe(liveSnapshot(live, r), verdictNow.Add(time.Second))
		fired := len(evs) == 1 && watchJSONVerdict(t, evs[0]) == jsonWord(c.want)
		if c.want != "ok" && !fired {
			t.Errorf("%s: watch fired %d events for a clean row turning %s", c.name, len(evs), c.want)
		}

		for threshold, fails := range map[string]bool{"red": c.want == "red", "yellow": c.want == "red" || c.want == "yellow", "none": false} {
			_, code := listRun(t, snap, "app:"+c.name, listOptions{output: "json", failOn: threshold})
			if want := map[bool]int{true: ExitDrift, false: ExitOK}[fails]; code != want {
				t.Errorf("%s: list --fail-on %s exits %d, want %d", c.name, threshold, code, want)
			}
		}
		_, code := listRun(t, snap, "app:"+c.name, listOptions{output: "json", failOn: "none", failOnUnknown: true})
		if want := map[bool]int{true: ExitDrift, false: ExitOK}[c.unknown]; code != want {
			t.Errorf("%s: list --fail-on none --fail-on-unknown exits %d, want %d", c.name, code, want)
		}
	}

	for _, word := range []string{"ok", "yellow", "red", "n/a"} {
		for _, typed := range []string{jsonWord(word), word, boardLabel(word)[:strings.Index(boardLabel(word), " ")]} {
			selects(t, snap, "sev:"+typed, fleet, func(c verdictCase) bool { return c.want == word })
		}
	}
	selects(t, snap, "sev:>=yellow", fleet, func(c verdictCase) bool { return rankOf(c.want) >= rankOf("yellow") })
	selects(t, snap, "has:unknown", fleet, func(c verdictCase) bool { return c.unknown })
	sorted := query.Select(snap.Rows(), query.Query{}, query.SortSeverity)
	for i := 1; i < len(sorted); i++ {
		if a, b := byName[sorted[i-1].App], byName[sorted[i].App]; rankOf(a.want) < rankOf(b.want) {
			t.Errorf("severity sort puts %s (%s) before %s (%s)", a.name, a.want, b.name, b.want)
		}
	}
}

// selects checks that query q selects exactly the rows want says.
func selects(t *testing.T, snap *store.Snapshot, q string, fleet []verdictCase, want func(verdictCase) bool) {
	t.Helper()
	parsed, err := query.Parse(q)
	if err != nil {
		t.Errorf("query %s: %v", q, err)
		return
	}
	for _, c := range fleet {
		if got := parsed.Match(snap.Find(c.row.Key())); got != want(c) {
			t.Errorf("%s: query %s matches it: %v, want %v", c.name, q, got, want(c))
		}
	}
}
