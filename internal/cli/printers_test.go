package cli

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/query"
)

func printerRows() []*model.AppView {
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	mk := func(cluster, ns, name, tag string, ready int32) *model.AppView {
		app := model.AppObject{Key: model.Key{Cluster: cluster, Namespace: ns, Name: name}, Kind: "App",
			ImageRepository: "ghcr.io/hanzoai/" + name, ImageTag: tag}
		one := int32(1)
		wl := &model.Workload{Kind: model.KindDeployment, Name: name, OwnedByApp: true, Replicas: &one, ReadyReplicas: ready,
			UpdatedReplicas: 1, AvailableReplicas: ready, Containers: []model.Container{{Name: name, Image: "ghcr.io/hanzoai/" + name + ":" + tag}}}
		r := model.Build(app, wl, model.Release{State: model.ReleaseOff}, now)
		return &r
	}
	return []*model.AppView{
		mk("prod", "hanzo", "iam", "v1.2.3", 1),
		mk("prod", "tenant-acme", "kv", "v0.9.0", 0),
		mk("prod", "hanzo-testnet", "iam", "v1.2.4", 1),
	}
}

// The table's columns are the same whatever the rows: CLUSTER and GIT are
// there with one cluster and no CD, so awk's $5 is always the cluster.
func TestTableColumnsAreFixed(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	want := "SEV APP ENV NAMESPACE CLUSTER DECLARED RUNNING LATEST HEALTH PHASE GIT DRIFT"
	for _, rows := range [][]*model.AppView{printerRows(), printerRows()[:1]} {
		var out bytes.Buffer
		if err := writeTable(&out, rows, false, now); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if got := strings.Join(strings.Fields(lines[0]), " "); got != want {
			t.Errorf("header %q, want %q", got, want)
		}
		for _, l := range lines[1:] {
			if f := strings.Fields(l); len(f) != 12 || f[4] != "prod" {
				t.Errorf("row %q: %d fields, $5 %q", l, len(f), f[4])
			}
		}
	}
	var out bytes.Buffer
	if err := writeTableHeaders(&out, printerRows(), false, now, false); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "SEV") || strings.Count(out.String(), "\n") != 3 {
		t.Errorf("--no-headers:\n%s", out.String())
	}
}

func TestOutputFormatsParse(t *testing.T) {
	t.Parallel()
	for _, bad := range []struct{ o, want string }{
		{"xml", `-o must be table, wide, json or yaml, not "xml"; kubectl's name, jsonpath=TEMPLATE and custom-columns=SPEC work too`},
		{"jsonpath", "-o jsonpath needs a template"},
		{"jsonpath={.apps[", "-o jsonpath:"},
		{"custom-columns=", "-o custom-columns: no columns"},
		{"custom-columns=APP", `-o custom-columns: "APP" is not HEADER:PATH`},
		{"name=x", "-o must be"},
	} {
		_, err := parseOutput(bad.o, "table", "wide", "json", "yaml")
		var fe *FlagError
		if err == nil || !errors.As(err, &fe) || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("-o %s: %v, want a usage error with %q", bad.o, err, bad.want)
		}
	}
	for _, good := range []string{"table", "name", "jsonpath={.apps[*].app}", "custom-columns=A:.app,B:{.drift.severity},C:namespace"} {
		if _, err := parseOutput(good, "table", "wide", "json", "yaml"); err != nil {
			t.Errorf("-o %s: %v", good, err)
		}
	}
	if _, err := parseSortBy("colour"); err == nil || !strings.Contains(err.Error(), "--sort-by") {
		t.Errorf("--sort-by colour: %v", err)
	}
}

func printed(t *testing.T, o string, rows []*model.AppView, noHeaders bool) string {
	t.Helper()
	spec, err := parseOutput(o, "table", "wide", "json", "yaml")
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	a := newApp(Streams{Err: &errb})
	if err := a.printRows(&out, rows, spec, noHeaders); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// kubectl's -o name, jsonpath and custom-columns over list's JSON shapes.
func TestKubectlOutputFormats(t *testing.T) {
	t.Parallel()
	rows := printerRows()
	if got := printed(t, "name", rows, false); got != "hanzo/iam\ntenant-acme/kv\nhanzo-testnet/iam\n" {
		t.Errorf("-o name:\n%s", got)
	}
	if got := printed(t, `jsonpath={range .apps[*]}{.namespace}/{.app}={.workload.ready}{"\n"}{end}{.summary.total}`, rows, false); got != "hanzo/iam=1\ntenant-acme/kv=0\nhanzo-testnet/iam=1\n3" {
		t.Errorf("-o jsonpath:\n%q", got)
	}
	got := printed(t, "custom-columns=APP:.app,NS:{.namespace},READY:workload.ready,NOPE:.no.such,EP:.endpoints", rows, false)
	want := "APP  NS             READY  NOPE    EP\niam  hanzo          1      <none>  []\nkv   tenant-acme    0      <none>  []\niam  hanzo-testnet  1      <none>  []\n"
	if got != want {
		t.Errorf("-o custom-columns:\n%s\nwant\n%s", got, want)
	}
	if got := printed(t, "custom-columns=APP:.app", rows, true); got != "iam\nkv\niam\n" {
		t.Errorf("-o custom-columns --no-headers:\n%s", got)
	}
}

// A hostile value stays one escaped field in every kubectl format; the
// template's own line breaks are kept.
func TestKubectlOutputFormatsEscape(t *testing.T) {
	t.Parallel()
	rows := printerRows()[:1]
	rows[0].Phase = "a b\n\x1b]52;c;cm0=\x07"
	for _, o := range []string{`jsonpath={.apps[0].phase}{"\n"}`, "custom-columns=PHASE:.phase"} {
		got := printed(t, o, rows, true)
		if strings.Contains(got, "\x1b") || strings.Count(got, "\n") != 1 || !strings.Contains(got, `\x1b]52`) {
			t.Errorf("-o %s printed the value raw:\n%q", o, got)
		}
	}
}

// --sort-by takes the board's orders or, as kubectl's, a JSONPath.
func TestSortByJSONPath(t *testing.T) {
	t.Parallel()
	order := func(by string) string {
		s, err := parseSortBy(by)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := s.selectRows(printerRows(), query.Query{})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, r := range rows {
			names = append(names, r.Namespace+"/"+r.App)
		}
		return strings.Join(names, " ")
	}
	for by, want := range map[string]string{
		".namespace":        "hanzo/iam hanzo-testnet/iam tenant-acme/kv",
		"{.workload.ready}": "tenant-acme/kv hanzo/iam hanzo-testnet/iam",
		".declaredTag":      "tenant-acme/kv hanzo/iam hanzo-testnet/iam",
		"namespace":         "hanzo/iam hanzo-testnet/iam tenant-acme/kv",
	} {
		if got := order(by); got != want {
			t.Errorf("--sort-by %s: %s, want %s", by, got, want)
		}
	}
}
