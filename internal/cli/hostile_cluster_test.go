package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/hanzoai/driftboard/internal/termtext"
	"github.com/hanzoai/driftboard/internal/testing/hostile"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// A tenant writes control sequences of every family into every free-text
// field the API server accepts: list (all formats), get and restart
// --dry-run print none of them raw, with or without NO_COLOR, and JSON and
// YAML give back the exact values.
func TestHostileFleetOnTheAPIServer(t *testing.T) {
	iss := startTLSIssuer(t)
	c := testcluster.Start(t, testcluster.Options{Controllers: true, AuthenticationConfig: iss.AuthenticationConfig("hanzo-cli", "iam:")})
	c.CreateNamespaces("hanzo-testnet")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	text := strings.Join(hostile.Payloads, "|")
	want, err := c.SeedHostileApp(ctx, "hanzo-testnet", "evil", text)
	if err != nil {
		t.Fatal(err)
	}
	grantClusterAdmin(ctx, t, c, "iam:u-ops")
	e := newEnv(t)
	e.trustIssuerCA(t, iss)
	e.loginAs(iss, iss.token(t, "u-ops", "ops@hanzo.ai", orgRole{"admin", "admin"}))
	base := []string{"--kubeconfig", c.KubeconfigPath(), "--releases=off", "--iam-cluster", "test"}
	run := func(args ...string) result { return e.run(t, append(args, base...)...) }

	// Wait until the board has observed every hostile field.
	var row model.AppView
	deadline := time.Now().Add(2 * time.Minute)
	for {
		r := run("get", "evil", "--env", "test", "-o", "json")
		row = model.AppView{}
		if r.code == ExitOK && json.Unmarshal([]byte(r.out), &row) == nil && row.Workload.RestartedBy != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hostile app never showed whole: exit %d\n%s\n%s", r.code, r.out, r.err)
		}
		time.Sleep(time.Second)
	}
	exact := func(how string, got model.AppView) {
		t.Helper()
		var cond model.Condition
		if len(got.Conditions) > 0 {
			cond = got.Conditions[0]
		}
		var ep string
		if len(got.Endpoints) > 0 {
			ep = got.Endpoints[0]
		}
		for _, f := range []struct{ name, got, want string }{
			{"declaredTag", got.DeclaredTag, want.Tag}, {"org", got.Org, want.Org}, {"phase", got.Phase, want.Phase},
			{"condition reason", cond.Reason, want.Reason}, {"condition message", cond.Message, want.Message},
			{"endpoint", ep, want.Endpoint}, {"restartedBy", got.Workload.RestartedBy, want.RestartedBy},
		} {
			if f.got != f.want {
				t.Errorf("%s: %s = %q, want exactly %q", how, f.name, f.got, f.want)
			}
		}
	}
	exact("get -o json", row)

	clean := func(what, s string) {
		t.Helper()
		if i := termtext.FirstRaw(s, false); i >= 0 {
			t.Errorf("%s: raw control at byte %d: %q", what, i, s[max(0, i-30):min(len(s), i+30)])
		}
		if strings.Contains(s, "\x1b") {
			t.Errorf("%s: an ESC byte in text output", what)
		}
	}
	for _, noColor := range []string{"", "1"} {
		e.vars["NO_COLOR"] = noColor
		for _, args := range [][]string{
			{"list"}, {"list", "-o", "wide"}, {"get", "evil", "--env", "test"},
			{"restart", "evil", "--env", "test", "--dry-run"},
		} {
			r := run(args...)
			if r.code == ExitError {
				t.Fatalf("%v: exit %d\n%s", args, r.code, r.err)
			}
			what := strings.Join(args, " ")
			clean(what+" (stdout)", r.out)
			clean(what+" (stderr)", r.err)
			if args[0] == "list" && strings.Count(r.out, "\n") != 2 { // a value never forges a line or a cell
				t.Errorf("%s: %d lines, want the header and one row:\n%s", what, strings.Count(r.out, "\n"), r.out)
			}
			if !strings.Contains(r.out+r.err, `\x1b]52;c;cm0gLXJmIH4=\x07`) {
				t.Errorf("%s does not show the escaped value:\n%s\n%s", what, r.out, r.err)
			}
		}
	}
	if r := run("restart", "evil", "--env", "test", "--dry-run"); !strings.Contains(r.out, "dry run") {
		t.Errorf("restart --dry-run: %q", r.out)
	}

	r := run("list", "-o", "json")
	clean("list -o json", r.out) // the encoder and JSONSafe leave nothing raw
	var doc ListOutput
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil || len(doc.Apps) != 1 {
		t.Fatalf("list -o json: %v\n%s", err, r.out)
	}
	exact("list -o json", *doc.Apps[0])
	r = run("list", "-o", "yaml")
	clean("list -o yaml", r.out) // escaped in double-quoted strings, values exact
	var ydoc ListOutput
	if err := yaml.Unmarshal([]byte(r.out), &ydoc); err != nil || len(ydoc.Apps) != 1 {
		t.Fatalf("list -o yaml: %v (%d apps)\n%s\n%s", err, len(ydoc.Apps), r.out, r.err)
	}
	exact("list -o yaml", *ydoc.Apps[0])
}
