package config

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// Every problem in the file is reported at once, in file order, each with
// its line, column and field; the first is still an *Error.
func TestParseReportsEveryError(t *testing.T) {
	t.Parallel()
	const bad = `theme: blue
colour: red
readOnly: "yes"
savedFilters:
  broken: "sev:red ("
releases:
  interval: soon
  nope: 1
restart:
  maxParallel: 0
keys:
  restart: [R]
  filter: [R]
`
	_, err := Parse("c.yaml", []byte(bad), testChecks)
	if err == nil {
		t.Fatal("a bad file parsed")
	}
	lines := strings.Split(err.Error(), "\n")
	want := []string{
		`config c.yaml:1:8: field "theme": "blue" is not a theme`,
		`config c.yaml:2:1: field "colour": unknown field`,
		`config c.yaml:3:11: field "readOnly": must be true or false`,
		`config c.yaml:5:11: field "savedFilters.broken": query`,
		`config c.yaml:7:13: field "releases.interval": "soon" is not a duration`,
		`config c.yaml:8:3: field "releases.nope": unknown field`,
		`config c.yaml:10:16: field "restart.maxParallel": 0: at least 1`,
		`config c.yaml:12:12: field "keys.restart": key "R" is also bound to "filter"`,
	}
	if len(lines) != len(want) {
		t.Fatalf("%d problems reported, want %d:\n%s", len(lines), len(want), err)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("problem %d: %q, want it to start %q", i+1, lines[i], w)
		}
	}
	var one *Error
	if !errors.As(err, &one) || one.Line != 1 {
		t.Errorf("errors.As(*Error) = %+v", one)
	}
}

// Each value says where it came from, a nested one included; a duration
// is printed one way, whether it was written 600s or came as the default.
func TestSourcesPerValueAndOneDurationForm(t *testing.T) {
	t.Parallel()
	file, err := Parse("c.yaml", []byte("releases:\n  interval: 600s\nrestart:\n  maxParallel: 4\n"), testChecks)
	if err != nil {
		t.Fatal(err)
	}
	off := false
	e := Resolve(*file, Overrides{Releases: &off, IAMClusters: []string{"https://api.example:6443", "dev"}}, func(string) string { return "" })
	if ok, why := e.IAM.Trust("dev", "https://dev.example"); !ok { // a bare --iam-cluster name holds for its run
		t.Errorf("--iam-cluster dev not trusted: %s", why)
	}
	for path, want := range map[string]string{
		"releases.enabled":    "flag --releases",
		"releases.interval":   "file",
		"releases.githubURL":  "default",
		"restart.maxParallel": "file",
		"logs.maxLines":       "default",
		"iam.clusters":        "flag --iam-cluster",
		"issuer":              "default",
	} {
		if got := e.Sources[path]; got != want {
			t.Errorf("source of %s = %q, want %q", path, got, want)
		}
	}
	out, err := e.YAML("c.yaml", true)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"  enabled: false # flag --releases\n", "  interval: 10m # file\n", "  githubURL: https://api.github.com/ # default\n",
		"  maxParallel: 4 # file\n", "  maxLines: 5000 # default\n",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("config lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "releases: #") {
		t.Errorf("a mapping carries one source for all its values:\n%s", out)
	}
	def := Resolve(Config{}, Overrides{}, func(string) string { return "" })
	if def.Releases.Interval != "10m" || e.Releases.Interval != "10m" {
		t.Errorf("intervals %q (default) and %q (600s in the file), want both 10m", def.Releases.Interval, e.Releases.Interval)
	}
	for in, want := range map[string]string{"1h": "1h", "90s": "1m30s", "1h0m30s": "1h0m30s", "2h30m": "2h30m", "45m0s": "45m"} {
		d, _ := time.ParseDuration(in)
		if got := FormatDuration(d); got != want {
			t.Errorf("FormatDuration(%s) = %q, want %q", in, got, want)
		}
	}
}
