package cli

import (
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/klog/v2"

	"github.com/hanzoai/driftboard/internal/config"
	"github.com/hanzoai/driftboard/ui"
)

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestConfigErrorNamesFileLineField(t *testing.T) {
	e := newEnv(t)
	path := writeFile(t, filepath.Join(e.vars["XDG_CONFIG_HOME"], "driftboard"), "config.yaml",
		"theme: dark\nsavedFilters:\n  reds: \"sev:red\"\n  bad: \"sev:purple\"\n")
	r := e.run(t, "config")
	r.expect(t, ExitError, path+":4:", `field "savedFilters.bad"`)

	// Every command that reads the config reports it the same way.
	r = e.run(t, "list", "--kubeconfig", missingKubeconfig(t))
	r.expect(t, ExitError, path+":4:")
}

func TestConfigUnknownKeyAction(t *testing.T) {
	e := newEnv(t)
	path := writeFile(t, t.TempDir(), "c.yaml", "keys:\n  restart: [R]\n  launch: [x]\n")
	e.run(t, "config", "--config", path).expect(t, ExitError, path+":3:", `field "keys.launch"`, "unknown action")
	e.run(t, "config", "--config", filepath.Join(t.TempDir(), "missing.yaml")).expect(t, ExitError, "read config")
}

func TestConfigPrintsEffectiveWithSources(t *testing.T) {
	e := newEnv(t)
	writeFile(t, filepath.Join(e.vars["XDG_CONFIG_HOME"], "driftboard"), "config.yaml",
		"issuer: https://file.example\nclientID: file-id\ntheme: light\n")
	e.vars["HANZO_CLIENT_ID"] = "env-id"
	r := e.run(t, "config", "--issuer", "https://flag.example")
	r.expect(t, ExitOK)
	for _, want := range []string{
		"issuer: https://flag.example # flag --issuer",
		"clientID: env-id # env HANZO_CLIENT_ID",
		"theme: light # file",
	} {
		if !strings.Contains(r.out, want) {
			t.Errorf("config output lacks %q:\n%s", want, r.out)
		}
	}
	r = e.run(t, "config", "-o", "json", "--releases=off")
	r.expect(t, ExitOK)
	var got struct {
		Issuer   string `json:"issuer"`
		Releases struct {
			Enabled bool `json:"enabled"`
		} `json:"releases"`
	}
	if err := json.Unmarshal([]byte(r.out), &got); err != nil {
		t.Fatalf("config -o json: %v\n%s", err, r.out)
	}
	if got.Issuer != "https://file.example" || got.Releases.Enabled {
		t.Errorf("config -o json = %+v", got)
	}
}

func TestConfigSchemaCommand(t *testing.T) {
	e := newEnv(t)
	r := e.run(t, "config", "schema")
	r.expect(t, ExitOK)
	var s map[string]any
	if err := json.Unmarshal([]byte(r.out), &s); err != nil || s["properties"] == nil {
		t.Fatalf("schema is not a JSON Schema: %v\n%s", err, r.out)
	}
}

// Logs, client-go's included, go to --log-file and nowhere else, without
// secrets.
func TestLogFileTakesKlogAndRedacts(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "driftboard.log")
	var errb strings.Builder
	a := newApp(Streams{Err: &errb, Getenv: func(string) string { return "" }})
	a.opts.logFile, a.opts.verbosity = logPath, 4
	if err := a.setupLogging(true); err != nil {
		t.Fatal(err)
	}
	klog.InfoS("reflector list", "resource", "apps")
	klog.V(4).InfoS("round trip", "authorization", "Bearer abc.def.ghi")
	klog.Errorf("watch failed: %s", "connection refused")
	a.log.Info("startup", "access_token", "abc.def.ghi", "note", slog.StringValue("Bearer xyz"), "user_code", "WDJB-MJHT", "statusCode", 200)
	a.close()
	klog.InfoS("after close") // must go nowhere
	b, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for _, want := range []string{"reflector list", "round trip", "watch failed", "startup", "statusCode=200"} {
		if !strings.Contains(text, want) {
			t.Errorf("log file lacks %q:\n%s", want, text)
		}
	}
	for _, secret := range []string{"abc.def.ghi", "xyz", "WDJB-MJHT", "after close"} {
		if strings.Contains(text, secret) {
			t.Errorf("log file contains %q:\n%s", secret, text)
		}
	}
	if errb.Len() != 0 {
		t.Errorf("the board's logs reached stderr: %q", errb.String())
	}
}

// The example in docs/configuration.md must be a valid config file, and the
// page must name every key action.
func TestConfigDocExampleParses(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "configuration.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	_, block, ok := strings.Cut(doc, "```yaml\n")
	if !ok {
		t.Fatal("docs/configuration.md has no yaml example")
	}
	block, _, _ = strings.Cut(block, "```")
	cfg, err := config.Parse("docs/configuration.md", []byte(block), configChecks())
	if err != nil {
		t.Fatalf("docs/configuration.md example: %v", err)
	}
	if len(cfg.Contexts) == 0 || len(cfg.SavedFilters) == 0 || !cfg.ReadOnlyFor("prod-eu") || len(cfg.Keys) == 0 {
		t.Errorf("docs/configuration.md example parsed to %+v", cfg)
	}
	for _, a := range ui.KeyActions() {
		if !strings.Contains(doc, "`"+a+"`") {
			t.Errorf("docs/configuration.md does not list the key action %q", a)
		}
	}
}

// restart.maxParallel from the config is the board's set restart limit.
func TestBoardSetRestartLimitFromConfig(t *testing.T) {
	five := 5
	getenv := func(string) string { return "" }
	set := config.Resolve(config.Config{Restart: config.Restart{MaxParallel: &five}}, config.Overrides{}, getenv)
	unset := config.Resolve(config.Config{}, config.Overrides{}, getenv)
	if got, def := boardOptions(set, false).SetRestartLimit, boardOptions(unset, false).SetRestartLimit; got != 5 || def != 3 {
		t.Errorf("board set restart limit %d from the file, %d without; want 5 and 3", got, def)
	}
}

// driftboard config says every problem in the file at once, a line each.
func TestConfigReportsEveryProblem(t *testing.T) {
	e := newEnv(t)
	path := writeFile(t, t.TempDir(), "c.yaml", "theme: blue\nreleases:\n  interval: soon\nrestart:\n  maxParallel: 0\n")
	r := e.run(t, "config", "--config", path)
	r.expect(t, ExitError, "error: config "+path+":1:8: field \"theme\"", "\nconfig "+path+":3:13: field \"releases.interval\"",
		"\nconfig "+path+":5:16: field \"restart.maxParallel\"")
}
