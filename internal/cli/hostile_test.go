package cli

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/internal/termtext"
	"github.com/hanzoai/driftboard/internal/testing/hostile"
	"github.com/hanzoai/driftboard/model"
)

func hostileView(s string) *model.AppView {
	r := &model.AppView{Drift: drift.Drift{Flags: []drift.DriftFlag{{}}}, DriftSince: new(time.Unix(1, 0)), Chart: &model.ChartSource{}}
	hostile.Fill(r, s)
	r.Workload.Found = true
	return r
}

// printAll writes rows with every text printer and checks each output: no
// character a terminal acts on but '\n', no ESC at all, and each row on its
// own line(s) — a value never forges one. base is a harmless value with the
// same emptiness as the rows' (an empty field legitimately drops its line).
func printAll(t testing.TB, rows []*model.AppView, base string) {
	t.Helper()
	now := time.Unix(100, 0)
	check := func(what, out string, lines int) {
		t.Helper()
		if i := termtext.FirstRaw(out, false); i >= 0 {
			t.Fatalf("%s: raw control at byte %d: %q", what, i, out[max(0, i-20):min(len(out), i+20)])
		}
		if lines > 0 && strings.Count(out, "\n") != lines {
			t.Fatalf("%s: %d lines, want %d:\n%s", what, strings.Count(out, "\n"), lines, out)
		}
	}
	for _, wide := range []bool{false, true} {
		var b bytes.Buffer
		if err := writeTable(textOut(&b), rows, wide, now); err != nil {
			t.Fatal(err)
		}
		check("table", b.String(), 1+len(rows))
	}
	for _, o := range []struct {
		spec  string
		lines int
	}{
		{"name", len(rows)},
		{"custom-columns=APP:.app,NS:.namespace,PHASE:.phase,FLAGS:.drift.flags[*].message,LABELS:.labels", 1 + len(rows)},
		{`jsonpath={range .apps[*]}{.app} {.phase} {.drift.flags[*].message} {.labels}{"\n"}{end}`, len(rows)},
	} {
		spec, err := parseOutput(o.spec, "table")
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := newApp(Streams{Err: &bytes.Buffer{}}).printRows(&b, rows, spec, false); err != nil {
			t.Fatal(err)
		}
		check("-o "+o.spec, b.String(), o.lines)
	}
	var plain bytes.Buffer // the same fields, harmless: the lines get must print
	if err := writeDetail(&plain, hostileView(base), now); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		var b bytes.Buffer
		if err := writeDetail(textOut(&b), r, now); err != nil {
			t.Fatal(err)
		}
		check("get", b.String(), strings.Count(plain.String(), "\n"))
		plan := model.PlanRestart(r)
		check("restart", termtext.Sanitize(plan.Title()+". "+plan.Effect()+" "+r.App), 0)
		check("restart prompt", termtext.Sanitize(plan.Prompt()), 0)
		for _, w := range plan.Warnings {
			check("restart warning", termtext.Sanitize(w), 0)
		}
	}
	var b bytes.Buffer
	if err := writeJSON(&b, newListOutput(rows)); err != nil {
		t.Fatal(err)
	}
	check("json", b.String(), 0)
	var back ListOutput
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatalf("json does not parse: %v", err)
	}
	for i := range rows { // what plain encoding/json round-trips (bytes that are not UTF-8 become U+FFFD in both)
		plain, _ := json.Marshal(rows[i])
		var want model.AppView
		if err := json.Unmarshal(plain, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(&want, back.Apps[i]) {
			t.Fatalf("json changed a value:\nwant %+v\ngot  %+v", want, back.Apps[i])
		}
	}
}

func TestHostileRowsInTextPrinters(t *testing.T) {
	var rows []*model.AppView
	for _, s := range hostile.Payloads {
		rows = append(rows, hostileView(s))
	}
	printAll(t, rows, "ok")
	var b bytes.Buffer
	if err := writeTable(textOut(&b), rows[:2], false, time.Now()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `x\x1b]52;c;cm0gLXJmIH4=\x07`) {
		t.Fatalf("the value is not shown escaped:\n%s", b.String())
	}
}

func TestJSONKeepsExactValuesEscaped(t *testing.T) {
	in := map[string]string{"v": "a\x7f\u0085\u202e\U000E0041\x1b"}
	var b bytes.Buffer
	if err := writeJSON(&b, in); err != nil {
		t.Fatal(err)
	}
	if want := `"a\u007f\u0085\u202e\udb40\udc41\u001b"`; !strings.Contains(b.String(), want) {
		t.Fatalf("got %s, want %s in it", b.String(), want)
	}
	var back map[string]string
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || !reflect.DeepEqual(back, in) {
		t.Fatalf("round trip: %q, %v", back, err)
	}
}

func TestStderrIsGuarded(t *testing.T) {
	r := newEnv(t).run(t, "list", "--bogus\x1b]52;c;eA==\x07") // cobra echoes the flag raw
	r.expect(t, ExitError)
	if i := termtext.FirstRaw(r.err, false); i >= 0 || !strings.Contains(r.err, `\x1b]52`) {
		t.Fatalf("stderr: %q", r.err)
	}
}

func FuzzTextPrinters(f *testing.F) {
	for _, s := range hostile.Payloads {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		base := "ok"
		if s == "" {
			base = ""
		}
		printAll(t, []*model.AppView{hostileView(s), hostileView(base)}, base)
	})
}

func TestYAMLKeepsExactValuesTerminalSafe(t *testing.T) {
	for _, s := range append(hostile.Payloads, "plain", "2026-11-30T14:00:00Z", "123", "yes", "a: b", "tag\U000E0041") {
		in := map[string]any{"v": s, s: []string{s}, "n": 3}
		var b bytes.Buffer
		if err := writeYAML(&b, in); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if i := termtext.FirstRaw(b.String(), false); i >= 0 {
			t.Fatalf("%q: raw control in the YAML at %d:\n%s", s, i, b.String())
		}
		var back map[string]any
		if err := yaml.Unmarshal(b.Bytes(), &back); err != nil {
			t.Fatalf("%q: %v\n%s", s, err, b.String())
		}
		var want map[string]any // what JSON keeps (bytes that are not UTF-8 become U+FFFD)
		j, _ := json.Marshal(in)
		_ = json.Unmarshal(j, &want)
		if !reflect.DeepEqual(back, want) {
			t.Fatalf("%q: YAML gave back %#v, want %#v\n%s", s, back, want, b.String())
		}
	}
}
