package cli

import (
	"encoding/json"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionFallsBackToBuildInfo(t *testing.T) {
	// What `go install github.com/hanzoai/driftboard@v1.4.0` records: no
	// ldflags stamp, the module version and the VCS settings.
	installed := func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{GoVersion: "go1.26.7", Main: debug.Module{Version: "v1.4.0"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-11-30T10:00:00Z"}, {Key: "vcs.modified", Value: "true"},
		}}, true
	}
	v := buildVersion(installed)
	if v.Version != "v1.4.0" || v.Commit != "abc123-dirty" || v.Date != "2026-11-30T10:00:00Z" || v.GoVersion != "go1.26.7" {
		t.Errorf("from build info: %+v", v)
	}
	// A checkout built with plain `go build`: "(devel)" is no version.
	devel := func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true
	}
	if v := buildVersion(devel); v.Version != "dev" || v.Commit != "unknown" {
		t.Errorf("devel build: %+v", v)
	}
	// The ldflags stamp wins over what the toolchain recorded.
	version, commit, date = "v2.0.0", "def456", "2026-12-01T04:00:00Z"
	t.Cleanup(func() { version, commit, date = "", "", "" })
	if v := buildVersion(installed); v.Version != "v2.0.0" || v.Commit != "def456" || v.Date != "2026-12-01T04:00:00Z" {
		t.Errorf("stamped: %+v", v)
	}
}

func TestVersionCommandAndFlag(t *testing.T) {
	version, commit, date = "v2.0.0", "def456", "2026-12-01T04:00:00Z"
	t.Cleanup(func() { version, commit, date = "", "", "" })
	e := newEnv(t)
	text := e.run(t, "version")
	text.expect(t, ExitOK)
	if !strings.HasPrefix(text.out, "driftboard v2.0.0 (commit def456, built 2026-12-01T04:00:00Z, go1.") {
		t.Errorf("version: %q", text.out)
	}
	flag := e.run(t, "--version")
	flag.expect(t, ExitOK)
	if flag.out != text.out {
		t.Errorf("--version %q differs from version %q", flag.out, text.out)
	}
	js := e.run(t, "version", "-o", "json")
	js.expect(t, ExitOK)
	var got VersionInfo
	if err := json.Unmarshal([]byte(js.out), &got); err != nil {
		t.Fatalf("version -o json: %v\n%s", err, js.out)
	}
	if got.Version != "v2.0.0" || got.Commit != "def456" || !strings.HasPrefix(got.GoVersion, "go1.") || got.Platform == "" {
		t.Errorf("version -o json: %+v", got)
	}
	e.run(t, "version", "-o", "xml").expect(t, ExitError, "-o must be text, json or yaml")
}
