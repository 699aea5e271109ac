package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"go.yaml.in/yaml/v3"

	"github.com/hanzoai/driftboard/internal/changestream"
	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/logbuf"
	"github.com/hanzoai/driftboard/model/query"
	"github.com/hanzoai/driftboard/model/store"
	"github.com/hanzoai/driftboard/ui"
)

// The outputs of TestOneVerdictInEveryOutput, each read back as a word.

// listRun prints the snapshot as list does and returns stdout and the exit code.
func listRun(t *testing.T, snap *store.Snapshot, q string, o listOptions) (string, int) {
	t.Helper()
	var out, errw bytes.Buffer
	a := newApp(Streams{Out: &out, Err: &errw, Getenv: func(string) string { return "" }})
	parsed, err := query.Parse(q)
	if err != nil {
		t.Fatal(err)
	}
	threshold, err := failThreshold(o.failOn)
	if err != nil {
		t.Fatal(err)
	}
	by, err := parseSortBy("name")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := parseOutput(o.output, "table", "wide", "json", "yaml")
	if err != nil {
		t.Fatal(err)
	}
	err = a.printList(&out, snap, nil, parsed, by, spec, threshold, o)
	return out.String(), exitCode(nil, err, false, func(string, ...any) {})
}

// listVerdicts reads each row's verdict from list's output: SEV for a
// table, "verdict" for JSON, YAML, custom-columns and jsonpath.
func listVerdicts(t *testing.T, format, out string) map[string]string {
	t.Helper()
	got := map[string]string{}
	var doc struct {
		Apps []map[string]any `json:"apps" yaml:"apps"`
	}
	switch format {
	case "json":
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("list -o json: %v", err)
		}
	case "yaml":
		if err := yaml.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("list -o yaml: %v", err)
		}
	case "table", "wide":
		for _, l := range strings.Split(out, "\n")[1:] {
			if f := strings.Fields(l); len(f) > 1 {
				got[f[1]] = f[0]
			}
		}
		return got
	default: // custom-columns and jsonpath, each line "VERDICT APP" (a header first for columns)
		for _, l := range strings.Split(out, "\n") {
			if f := strings.Fields(l); len(f) == 2 && f[0] != "SEV" {
				got[f[1]] = f[0]
			}
		}
		return got
	}
	for _, a := range doc.Apps {
		got[fmt.Sprint(a["app"])] = fmt.Sprint(a["verdict"])
	}
	return got
}

func jsonField(t *testing.T, b []byte, key string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%v:\n%s", err, b)
	}
	return fmt.Sprint(m[key])
}

func liveSnapshot(clusters []model.ClusterState, rows ...*model.AppView) *store.Snapshot {
	s := store.NewSnapshot(rows)
	s.Clusters = clusters
	return s
}

func eventFor(evs []changestream.Event, app string) changestream.Event {
	for _, ev := range evs {
		if ev.App == app {
			return ev
		}
	}
	return changestream.Event{}
}

// watchJSONVerdict is the event's after.verdict as -o jsonl writes it.
func watchJSONVerdict(t *testing.T, ev changestream.Event) string {
	t.Helper()
	var b bytes.Buffer
	if err := changestream.WriteJSON(&b, ev); err != nil {
		t.Fatal(err)
	}
	var m struct {
		After map[string]any `json:"after"`
	}
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(m.After["verdict"])
}

// storeFleet is a store of rows as the board's fleet; nothing else is
// available here (a verdict needs only the rows). Its restarts go through
// the restart use case, like every fleet's.
type storeFleet struct{ *store.Store }

func boardFleetOf(st *store.Store) ui.Fleet {
	f := storeFleet{st}
	return struct {
		storeFleet
		*restart.Restarts
		ui.NoPromotions
	}{f, restart.New(f, restart.Policy{}), ui.NoPromotions{Why: storeFleetWhy}}
}

const storeFleetWhy = "a store of rows only"

func (storeFleet) Changed() <-chan struct{} { return nil }
func (storeFleet) Settled() <-chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}
func (storeFleet) CheckRestart(context.Context, model.Key) model.Decision {
	return model.Decision{Reason: model.NotAvailable("restarts", storeFleetWhy).Error()}
}
func (storeFleet) RestartWith(context.Context, model.Key, restart.Request) (restart.Result, error) {
	return restart.Result{}, model.NotAvailable("restarts", storeFleetWhy)
}
func (storeFleet) WaitRollout(context.Context, model.Key, func(model.WorkloadView)) error {
	return model.NotAvailable("rollouts", storeFleetWhy)
}
func (storeFleet) RunningDigests(context.Context, model.Key) (model.PodDigests, error) {
	return model.PodDigests{}, model.NotAvailable("pod digests", storeFleetWhy)
}
func (storeFleet) WatchEvents(context.Context, model.Key) (<-chan []model.Event, error) {
	return nil, model.NotAvailable("Events", storeFleetWhy)
}
func (storeFleet) LogPods(context.Context, model.Key) ([]model.LogPod, error) {
	return nil, model.NotAvailable("logs", storeFleetWhy)
}
func (storeFleet) OpenLog(context.Context, model.Key, model.LogRequest) (*logbuf.Feed, error) {
	return nil, model.NotAvailable("logs", storeFleetWhy)
}
func (storeFleet) AppYAML(context.Context, model.Key) (string, error) {
	return "", model.NotAvailable("YAML", storeFleetWhy)
}

// boardFrame is the board's text over the store, after keys.
func boardFrame(t *testing.T, st *store.Store, filter string, keys ...string) string {
	t.Helper()
	dark := true
	m := ui.New(boardFleetOf(st), nil, ui.Options{DarkBackground: &dark, NoColor: true, InitialQuery: filter,
		Now: func() time.Time { return verdictNow }})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 40})
	// Init: the first snapshot and the promotions in flight (none here:
	// this fleet has no forge), each answered at once.
	first := m.Init()()
	batch, ok := first.(tea.BatchMsg)
	if !ok {
		batch = tea.BatchMsg{func() tea.Msg { return first }}
	}
	for _, cmd := range batch {
		if cmd != nil {
			m, _ = m.Update(cmd())
		}
	}
	for _, k := range keys {
		key := tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
		if k == "enter" {
			key = tea.KeyPressMsg{Code: tea.KeyEnter}
		}
		m, _ = m.Update(key)
	}
	return ansi.Strip(m.View().Content)
}

func rowLine(frame, app string) string {
	for _, l := range strings.Split(frame, "\n") {
		if strings.Contains(l, " "+app+" ") {
			return l
		}
	}
	return ""
}

// labelIn is the one mark label on a board line ("" if none or several).
func labelIn(line string) string {
	found := ""
	for _, w := range []string{"ok", "yellow", "red", "n/a"} {
		if strings.Contains(line, boardLabel(w)) {
			if found != "" {
				return ""
			}
			found = boardLabel(w)
		}
	}
	return found
}

// headerOf is the frame's first three lines: the title, the counts, the
// column heads (or the detail's first line).
func headerOf(frame string) string {
	lines := strings.SplitN(frame, "\n", 4)
	return strings.Join(lines[:min(3, len(lines))], "\n")
}

// unknownCount sums the header's "? N why" counts.
func unknownCount(frame string) int {
	n := 0
	for _, m := range regexp.MustCompile(`\? (\d+) [a-z]+`).FindAllStringSubmatch(headerOf(frame), -1) {
		k, _ := strconv.Atoi(m[1])
		n += k
	}
	return n
}
