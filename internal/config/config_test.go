package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// testChecks stands in for the query language and the board's actions,
// which belong to other packages; cli passes the real ones.
var testChecks = Checks{
	Query: func(q string) error {
		if strings.Contains(q, "(") {
			return errors.New("unbalanced parenthesis")
		}
		return nil
	},
	KeyAction: func(a string) error {
		switch a {
		case "restart", "filter", "quit":
			return nil
		}
		return errors.New("unknown action")
	},
}

const goodConfig = `# a full config
contexts: [prod-eu, prod-us]
issuer: https://iam.example.com
clientID: my-cli
theme: dark
readOnly: false
perContext:
  prod-eu:
    readOnly: true
savedFilters:
  prod-red: "sev:red env:main"
keys:
  restart: [R]
  filter: ["/", f]
releases:
  enabled: false
  interval: 30m
  githubURL: https://ghe.example.com/api/v3/
  repos:
    - image: registry.example.com/team/*
      github: acme/*
    - image: ghcr.io/acme/tenant-*
      github: ""
restart:
  maxParallel: 5
logs:
  maxLines: 200
`

func TestParseGood(t *testing.T) {
	t.Parallel()
	cfg, err := Parse("config.yaml", []byte(goodConfig), testChecks)
	if err != nil {
		t.Fatal(err)
	}
	off, five, lines := false, 5, 200
	want := &Config{
		Contexts:     []string{"prod-eu", "prod-us"},
		Issuer:       "https://iam.example.com",
		ClientID:     "my-cli",
		Theme:        "dark",
		PerContext:   map[string]ContextSettings{"prod-eu": {ReadOnly: true}},
		SavedFilters: map[string]string{"prod-red": "sev:red env:main"},
		Keys:         map[string][]string{"restart": {"R"}, "filter": {"/", "f"}},
		Releases: Releases{Enabled: &off, Interval: "30m", GitHubURL: "https://ghe.example.com/api/v3/",
			Repos: []RepoMapping{{Image: "registry.example.com/team/*", GitHub: "acme/*"}, {Image: "ghcr.io/acme/tenant-*"}}},
		Restart: Restart{MaxParallel: &five},
		Logs:    Logs{MaxLines: &lines},
	}
	if d := cmp.Diff(want, cfg); d != "" {
		t.Fatalf("config (-want +got):\n%s", d)
	}
	if !cfg.ReadOnlyFor("prod-eu") || cfg.ReadOnlyFor("prod-us") {
		t.Error("per-context read-only not applied")
	}
	if cfg.Releases.On() || cfg.Releases.IntervalOrDefault() != 30*time.Minute {
		t.Errorf("releases: on=%v interval=%v", cfg.Releases.On(), cfg.Releases.IntervalOrDefault())
	}
	if got, unset := cfg.Restart.MaxParallelOrDefault(), (Restart{}).MaxParallelOrDefault(); got != 5 || unset != 3 {
		t.Errorf("restart.maxParallel: %d from the file, %d unset; want 5 and 3", got, unset)
	}
	if got, unset := cfg.Logs.MaxLinesOrDefault(), (Logs{}).MaxLinesOrDefault(); got != 200 || unset != DefaultLogLines {
		t.Errorf("logs.maxLines: %d from the file, %d unset; want 200 and %d", got, unset, DefaultLogLines)
	}
}

func TestParseErrorsNameFileLineField(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, yaml, field, msg string
		line                   int
	}{
		{"unknown top-level field", "issuer: https://a.b\nthemee: dark\n", "themee", "unknown field", 2},
		{"unknown nested field", "releases:\n  interval: 10m\n  enable: true\n", "releases.enable", "unknown field", 3},
		{"unknown per-context field", "perContext:\n  prod:\n    readonly: true\n", "perContext.prod.readonly", "unknown field", 3},
		{"bad theme", "theme: purple\n", "theme", "not a theme", 1},
		{"bad duration", "releases:\n  interval: 10 minutes\n", "releases.interval", "not a duration", 2},
		{"too short interval", "releases:\n  interval: 5s\n", "releases.interval", "shorter than the minimum", 2},
		{"repo mapping to a non-repo", "releases:\n  repos:\n    - image: oci.example.com/x/*\n      github: acme\n", "releases.repos[0]", "not owner/repo", 3},
		{"repo mapping bad pattern", "releases:\n  repos:\n    - image: \"oci.example.com/[x\"\n      github: a/b\n", "releases.repos[0]", "not a host/path pattern", 3},
		{"zero set restart limit", "theme: dark\nrestart:\n  maxParallel: 0\n", "restart.maxParallel", "at least 1", 3},
		{"negative set restart limit", "restart:\n  maxParallel: -2\n", "restart.maxParallel", "at least 1", 2},
		{"too few log lines", "logs:\n  maxLines: 5\n", "logs.maxLines", "keep between 10 and 1000000 lines", 2},
		{"too many log lines", "logs:\n  maxLines: 50000000\n", "logs.maxLines", "keep between", 2},
		{"set restart limit as word", "restart:\n  maxParallel: three\n", "restart.maxParallel", "whole number", 2},
		{"bool as word", "readOnly: yes\n", "readOnly", "true or false", 1},
		{"list expected", "contexts: prod\n", "contexts", "must be a list", 1},
		{"mapping expected", "releases: on\n", "releases", "mapping of fields", 1},
		{"bad query", "savedFilters:\n  a: ok\n  broken: \"sev:red (\"\n", "savedFilters.broken", "unbalanced", 3},
		{"unknown key action", "keys:\n  launch: [x]\n", "keys.launch", "unknown action", 2},
		{"key bound twice", "keys:\n  filter: [f]\n  quit: [f]\n", "keys.quit", "also bound", 3},
		{"bad issuer", "issuer: hanzo.id\n", "issuer", "http(s) URL", 1},
		{"karmada without its context", "karmada:\n  members:\n    member1: prod\n", "karmada.context", "context of Karmada's API server", 1},
		{"karmada without members", "karmada:\n  context: karmada\n", "karmada.members", "at least one member", 1},
		{"karmada's fallback misspelt", "karmada:\n  context: karmada\n  members:\n    m1: prod\n  whileDegraded: fallback\n", "karmada.whileDegraded", "want \"direct\" or \"wait\"", 5},
		{"karmada's context as a member's", "karmada:\n  context: karmada\n  members:\n    m1: karmada\n", "karmada.members.m1", "Karmada's own context", 4},
		{"duplicate field", "theme: dark\ntheme: light\n", "theme", "", 2},
		{"syntax error", "theme: dark\n  bad: [\n", "", "invalid YAML", 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse("/home/u/.config/driftboard/config.yaml", []byte(tc.yaml), testChecks)
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("want *config.Error, got %v", err)
			}
			if ce.Field != tc.field || ce.Line != tc.line || !strings.Contains(ce.Msg, tc.msg) {
				t.Errorf("got field %q line %d msg %q; want field %q line %d msg containing %q",
					ce.Field, ce.Line, ce.Msg, tc.field, tc.line, tc.msg)
			}
			text := err.Error()
			if !strings.Contains(text, "config.yaml:") || (tc.field != "" && !strings.Contains(text, `"`+tc.field+`"`)) {
				t.Errorf("message %q does not name the file and field", text)
			}
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "nope.yaml")
	cfg, found, err := Load(path, false, testChecks)
	if err != nil || found || cfg == nil {
		t.Fatalf("implicit missing file: cfg=%v found=%v err=%v", cfg, found, err)
	}
	if _, _, err := Load(path, true, testChecks); err == nil {
		t.Fatal("an explicit --config that does not exist must be an error")
	}
	empty := filepath.Join(t.TempDir(), "empty.yaml")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, found, err := Load(empty, true, testChecks); err != nil || !found {
		t.Fatalf("empty file: found=%v err=%v", found, err)
	}
}

func TestDefaultPathFollowsXDG(t *testing.T) {
	t.Parallel()
	env := map[string]string{"XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/u"}
	if got := DefaultPath(func(k string) string { return env[k] }); got != "/x/cfg/driftboard/config.yaml" {
		t.Errorf("DefaultPath() = %q", got)
	}
	env["XDG_CONFIG_HOME"] = "relative/ignored"
	if got := DefaultPath(func(k string) string { return env[k] }); got != "/home/u/.config/driftboard/config.yaml" {
		t.Errorf("DefaultPath() = %q", got)
	}
}

func TestResolvePrecedence(t *testing.T) {
	t.Parallel()
	file := Config{Issuer: "https://file.example", ClientID: "file-id", Contexts: []string{"a"}}
	env := map[string]string{EnvIssuer: "https://env.example", EnvClientID: "env-id"}
	off := false

	e := Resolve(file, Overrides{}, func(string) string { return "" })
	if e.Issuer != "https://file.example" || e.Sources["issuer"] != "file" || e.Theme != "auto" || e.Sources["theme"] != "default" {
		t.Errorf("file over defaults: %+v %v", e.Config, e.Sources)
	}
	e = Resolve(file, Overrides{}, func(k string) string { return env[k] })
	if e.Issuer != "https://env.example" || e.ClientID != "env-id" || e.Sources["clientID"] != "env "+EnvClientID {
		t.Errorf("env over file: %+v %v", e.Config, e.Sources)
	}
	e = Resolve(file, Overrides{Issuer: "https://flag.example", Contexts: []string{"b", "c"}, Releases: &off, ReadOnly: true},
		func(k string) string { return env[k] })
	if e.Issuer != "https://flag.example" || e.ClientID != "env-id" || !cmp.Equal(e.Contexts, []string{"b", "c"}) ||
		e.Releases.On() || !e.ReadOnly {
		t.Errorf("flags over env: %+v", e.Config)
	}
	e = Resolve(Config{}, Overrides{}, func(string) string { return "" })
	if e.Issuer != DefaultIssuer || e.ClientID != DefaultClientID || !e.Releases.On() {
		t.Errorf("defaults: %+v", e.Config)
	}
}

func TestEffectiveYAMLRoundTrips(t *testing.T) {
	t.Parallel()
	cfg, err := Parse("c.yaml", []byte(goodConfig), testChecks)
	if err != nil {
		t.Fatal(err)
	}
	e := Resolve(*cfg, Overrides{ClientID: "flag-id"}, func(string) string { return "" })
	out, err := e.YAML("/p/config.yaml", true)
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	for _, want := range []string{"file: /p/config.yaml (read)", "clientID: flag-id # flag --client-id", "issuer: https://iam.example.com # file"} {
		if !strings.Contains(text, want) {
			t.Errorf("effective YAML lacks %q:\n%s", want, text)
		}
	}
	// What `driftboard config` prints must itself be a valid config file.
	back, err := Parse("printed.yaml", out, testChecks)
	if err != nil {
		t.Fatalf("printed config does not parse: %v\n%s", err, text)
	}
	if d := cmp.Diff(&e.Config, back); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
}

func TestSchemaCoversEveryField(t *testing.T) {
	t.Parallel()
	var s struct {
		Properties map[string]struct {
			Description          string          `json:"description"`
			Properties           map[string]any  `json:"properties"`
			AdditionalProperties json.RawMessage `json:"additionalProperties"`
			Enum                 []string        `json:"enum"`
		} `json:"properties"`
		AdditionalProperties bool `json:"additionalProperties"`
	}
	if err := json.Unmarshal(Schema(), &s); err != nil {
		t.Fatal(err)
	}
	if s.AdditionalProperties {
		t.Error("schema must reject unknown top-level fields")
	}
	for name := range jsonFields(typeOfConfig) {
		p, ok := s.Properties[name]
		if !ok || p.Description == "" {
			t.Errorf("schema property %q missing or undocumented", name)
		}
	}
	if got := s.Properties["theme"].Enum; !cmp.Equal(got, []string{"auto", "dark", "light"}) {
		t.Errorf("theme enum = %v", got)
	}
	if _, ok := s.Properties["releases"].Properties["interval"]; !ok {
		t.Error("releases.interval missing from schema")
	}
}

// YAML 1.1 reads a bare n, y, on or off as a boolean; as keys they are
// letters and must reach the board as written.
func TestKeysKeepYAMLBooleanWordsAsKeys(t *testing.T) {
	t.Parallel()
	c, err := Parse("c.yaml", []byte("keys:\n  quit: [n, Y]\n  filter: [on, \"/\"]\n"), testChecks)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"quit": {"n", "Y"}, "filter": {"on", "/"}}
	if diff := cmp.Diff(want, c.Keys); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}
	if _, err := Parse("c.yaml", []byte("keys:\n  quit: [n]\n  filter: [n]\n"), testChecks); err == nil || !strings.Contains(err.Error(), `key "n" is also bound`) {
		t.Errorf("a key bound twice as n: %v", err)
	}
}
