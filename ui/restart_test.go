package ui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/dialog"
)

// dialogText is the open dialog's words, borders and line breaks removed.
func dialogText(m *Model) string {
	box := ""
	switch {
	case dialog.Find[*dialog.Confirm](m.dialogs) != nil:
		box = dialog.Find[*dialog.Confirm](m.dialogs).Render(&m.st, m.width, "")
	case dialog.Find[*dialog.Login](m.dialogs) != nil:
		box = dialog.Find[*dialog.Login](m.dialogs).Render(&m.st, m.width, "")
	}
	box = strings.NewReplacer("│", " ", "─", " ", "╭", " ", "╮", " ", "╰", " ", "╯", " ").Replace(ansi.Strip(box))
	return strings.Join(strings.Fields(box), " ")
}

func allowed() *fakeRestarter { return &fakeRestarter{decision: model.Decision{Allowed: true}} }

func TestRestartDialogNamesTheActionAndDefaultsToNo(t *testing.T) {
	r := allowed()
	m, _ := newTestModel(t, r, orgAdmin(), Options{}, 120, 30)
	selectApp(t, m, "explorer") // env test: "y" confirms
	press(m, "r")
	if dialog.Find[*dialog.Confirm](m.dialogs) == nil || dialog.Find[*dialog.Confirm](m.dialogs).Phase() != dialog.ConfirmAsk {
		t.Fatalf("r: dialog %+v", dialog.Find[*dialog.Confirm](m.dialogs))
	}
	v := dialogText(m)
	for _, want := range []string{
		"Rolling restart of Deployment hanzo-testnet/explorer in cluster prod (env test) as alice",
		"re-pull ghcr.io/hanzoai/explorer:v0.9.0", // the workload template's tag
		"A restart will not fix stale",            // declared drift: the model's plan says so
		"under infra/k8s/operator/crs/ of the universe repo",
		"[y/N]",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("dialog lacks %q:\n%s", want, v)
		}
	}
	if len(r.checks) != 1 {
		t.Fatalf("CheckRestart calls %d, want 1", len(r.checks))
	}
	press(m, "enter") // default No
	if dialog.Find[*dialog.Confirm](m.dialogs) != nil || r.restartCount() != 0 {
		t.Fatalf("enter must cancel: dialog %v restarts %d", dialog.Find[*dialog.Confirm](m.dialogs) != nil, r.restartCount())
	}
	press(m, "r", "esc")
	if dialog.Find[*dialog.Confirm](m.dialogs) != nil || r.restartCount() != 0 {
		t.Fatal("esc must cancel")
	}
	press(m, "r", "y")
	if got := r.restartCount(); got != 1 || r.restarts[0] != (model.Key{Cluster: "prod", Namespace: "hanzo-testnet", Name: "explorer"}) {
		t.Fatalf("y: restarts %v", r.restarts)
	}
	if dialog.Find[*dialog.Confirm](m.dialogs) != nil {
		t.Fatal("dialog stays open after an accepted restart")
	}
	if !strings.Contains(m.status.text, "following the rollout") {
		t.Fatalf("status %q", m.status.text)
	}
}

func TestProductionNeedsTheTypedName(t *testing.T) {
	r := allowed()
	m, _ := newTestModel(t, r, orgAdmin(), Options{}, 120, 30)
	selectApp(t, m, "iam") // namespace hanzo: env main
	press(m, "r", "y", "enter")
	if r.restartCount() != 0 {
		t.Fatal("y must not confirm in production")
	}
	typeText(m, "ia")
	press(m, "enter")
	if r.restartCount() != 0 || dialog.Find[*dialog.Confirm](m.dialogs) == nil || !strings.Contains(dialog.Find[*dialog.Confirm](m.dialogs).Reason(), "does not match") {
		t.Fatalf("wrong name: restarts %d dialog %+v", r.restartCount(), dialog.Find[*dialog.Confirm](m.dialogs))
	}
	press(m, "backspace", "backspace", "backspace")
	typeText(m, "iam")
	press(m, "enter")
	if r.restartCount() != 1 {
		t.Fatalf("typed name: restarts %d", r.restartCount())
	}
}

func TestRestartRefusedSaysWhy(t *testing.T) {
	expired := orgAdmin()
	expired.state.Expiry = t0.Add(-time.Minute)
	cases := []struct {
		name      string
		r         *fakeRestarter
		id        Identity
		opts      Options
		app       string
		want      string
		wantCheck bool
	}{
		{"read-only", allowed(), orgAdmin(), Options{ReadOnly: true}, "explorer", "read-only mode", false},
		{"no identity", allowed(), nil, Options{}, "explorer", "not logged in", false},
		{"expired", allowed(), expired, Options{}, "explorer", "session expired", false},
		{"no restarter", allowed(), orgAdmin(), Options{}, "explorer", "not available", false},
		{"no workload", allowed(), orgAdmin(), Options{}, "gateway", "no workload", false},
		{"rbac", &fakeRestarter{decision: model.Decision{Reason: "RBAC: alice cannot patch deployments in hanzo-testnet"}}, orgAdmin(), Options{}, "explorer", "RBAC: alice cannot patch", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var rs actions
			if c.name != "no restarter" {
				rs = c.r
			}
			m, _ := newTestModel(t, rs, c.id, c.opts, 120, 30)
			selectApp(t, m, c.app)
			press(m, "r")
			if dialog.Find[*dialog.Confirm](m.dialogs) == nil || dialog.Find[*dialog.Confirm](m.dialogs).Phase() != dialog.ConfirmRefused {
				t.Fatalf("dialog %+v", dialog.Find[*dialog.Confirm](m.dialogs))
			}
			if v := dialogText(m); !strings.Contains(v, "not allowed") || !strings.Contains(v, c.want) {
				t.Fatalf("dialog does not say %q:\n%s", c.want, plainView(m))
			}
			press(m, "y")
			if c.r.restartCount() != 0 {
				t.Fatal("a refused restart fired")
			}
			if got := len(c.r.checks) > 0; got != c.wantCheck {
				t.Fatalf("CheckRestart called = %v, want %v", got, c.wantCheck)
			}
		})
	}
}

func TestReadOnlyIsVisible(t *testing.T) {
	m, _ := newTestModel(t, allowed(), orgAdmin(), Options{ReadOnly: true}, 100, 20)
	if v := plainView(m); !strings.Contains(v, "READ-ONLY") || !strings.Contains(v, "restart: off (read-only)") {
		t.Fatalf("read-only not visible:\n%s", v)
	}
	press(m, "enter") // the detail's key line says so too, not "r restart…"
	if v := plainView(m); !strings.Contains(v, "r restart: off (read-only)") || strings.Contains(v, "restart…") {
		t.Fatalf("read-only not visible in the detail:\n%s", v)
	}
}

func TestInFlightGuardAndRolloutFollowed(t *testing.T) {
	r := allowed()
	m, src := newTestModel(t, r, orgAdmin(), Options{}, 120, 30)
	selectApp(t, m, "explorer")
	press(m, "r", "y")
	if r.restartCount() != 1 {
		t.Fatalf("restarts %d", r.restartCount())
	}
	key := model.Key{Cluster: "prod", Namespace: "hanzo-testnet", Name: "explorer"}
	if m.inflight[key] == nil {
		t.Fatal("no in-flight entry")
	}
	if !strings.Contains(plainView(m), "restarting…") {
		t.Fatalf("row does not show the pending restart:\n%s", plainView(m))
	}
	press(m, "r", "y")
	if r.restartCount() != 1 {
		t.Fatal("a second r fired a second restart")
	}
	if dialog.Find[*dialog.Confirm](m.dialogs) == nil || !strings.Contains(dialog.Find[*dialog.Confirm](m.dialogs).Reason(), "already in flight") {
		t.Fatalf("second r: dialog %+v", dialog.Find[*dialog.Confirm](m.dialogs))
	}
	press(m, "esc")

	rolling := app{ns: "hanzo-testnet", name: "explorer", declared: "v0.9.0", running: "v0.9.0", latest: "v1.0.0",
		ready: 2, updated: 1, assets: 1, restartedAt: t0.Format(time.RFC3339), restartedBy: "alice", generation: 2, observedGen: 2}
	src.upsert(rolling.build())
	m.Update(snapshotMsg{src.Snapshot()})
	if v := plainView(m); !strings.Contains(v, "1/2 ↻ v0.9.0") {
		t.Fatalf("rollout progress not shown:\n%s", v)
	}
	done := rolling
	done.updated = 2
	src.upsert(done.build())
	m.Update(snapshotMsg{src.Snapshot()})
	if m.inflight[key] == nil {
		t.Fatal("the row alone ended the restart: only the use case's Follow judges the rollout")
	}
	m.Update(followedMsg{key: key}) // Follow: complete
	if m.inflight[key] != nil {
		t.Fatal("rollout complete but still in flight")
	}
	if !strings.Contains(m.status.text, "complete") {
		t.Fatalf("status %q", m.status.text)
	}
	press(m, "r")
	if dialog.Find[*dialog.Confirm](m.dialogs) == nil || dialog.Find[*dialog.Confirm](m.dialogs).Phase() != dialog.ConfirmAsk {
		t.Fatalf("after completion a restart is offered again: %+v", dialog.Find[*dialog.Confirm](m.dialogs))
	}
}

func TestRestartErrorShownInWords(t *testing.T) {
	r := allowed()
	r.err = errors.New("patch deployment hanzo-testnet/explorer: deployments.apps \"explorer\" is forbidden")
	m, _ := newTestModel(t, r, orgAdmin(), Options{}, 120, 30)
	selectApp(t, m, "explorer")
	press(m, "r", "y")
	if dialog.Find[*dialog.Confirm](m.dialogs) == nil || dialog.Find[*dialog.Confirm](m.dialogs).Phase() != dialog.ConfirmFailed {
		t.Fatalf("dialog %+v", dialog.Find[*dialog.Confirm](m.dialogs))
	}
	v := dialogText(m)
	if !strings.Contains(v, "restart failed") || !strings.Contains(v, "is forbidden") {
		t.Fatalf("error not in the dialog:\n%s", plainView(m))
	}
	if len(m.inflight) != 0 || !m.status.bad {
		t.Fatalf("failed restart must clear in-flight and set a bad status: %v %+v", m.inflight, m.status)
	}
}

func TestRestartFromDetail(t *testing.T) {
	r := allowed()
	m, _ := newTestModel(t, r, orgAdmin(), Options{}, 120, 40)
	selectApp(t, m, "kms")
	press(m, "enter")
	if m.screen != screenDetail {
		t.Fatal("enter does not open the detail")
	}
	v := strings.Join(strings.Fields(plainView(m)), " ")
	for _, want := range []string{"declared (App)", "workload spec", "running", "latest release", "v2.0.1", "v2.0.0",
		"https://github.com/hanzoai/kms/releases/tag/v2.0.1", "un-rolled", "has not rolled out", "restart: yes, as alice"} {
		if !strings.Contains(v, want) {
			t.Errorf("detail lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(plainView(m))
	}
	press(m, "r")
	if dialog.Find[*dialog.Confirm](m.dialogs) == nil {
		t.Fatal("r in detail opens no dialog")
	}
	press(m, "esc", "esc")
	if m.screen != screenBoard {
		t.Fatal("esc does not go back to the board")
	}
}

func TestActionMenuOpensTheRestartDialog(t *testing.T) {
	r := allowed()
	m, _ := newTestModel(t, r, orgAdmin(), Options{}, 120, 30)
	selectApp(t, m, "explorer")
	press(m, "a")
	if dialog.Find[*dialog.Picker](m.dialogs) == nil || !strings.Contains(plainView(m), "Rolling restart…") {
		t.Fatalf("a: no action menu\n%s", plainView(m))
	}
	press(m, "enter")
	if dialog.Find[*dialog.Picker](m.dialogs) != nil || dialog.Find[*dialog.Confirm](m.dialogs) == nil || dialog.Find[*dialog.Confirm](m.dialogs).Phase() != dialog.ConfirmAsk {
		t.Fatalf("menu entry did not open the restart dialog: %+v", dialog.Find[*dialog.Confirm](m.dialogs))
	}
	ro, _ := newTestModel(t, r, orgAdmin(), Options{ReadOnly: true}, 120, 30)
	press(ro, "a")
	if v := plainView(ro); !strings.Contains(v, "not allowed: read-only") {
		t.Fatalf("read-only menu does not say the action is off:\n%s", v)
	}
}

func TestRestartThatGetsStuckIsReported(t *testing.T) {
	r := allowed()
	m, src := newTestModel(t, r, orgAdmin(), Options{}, 120, 30)
	selectApp(t, m, "queue")
	press(m, "r", "y")
	stuck := app{ns: "hanzo-testnet", name: "queue", declared: "v1.0.0", running: "v1.0.0", latest: "v1.0.0", replicas: 3,
		ready: 1, updated: 1, assets: 1, restartedAt: t0.Format(time.RFC3339), stuck: true}
	src.upsert(stuck.build())
	m.Update(snapshotMsg{src.Snapshot()})
	m.Update(followedMsg{key: model.Key{Cluster: "prod", Namespace: "hanzo-testnet", Name: "queue"}, err: errors.New("rollout of Deployment queue is stuck: ReplicaSet has timed out progressing")})
	if len(m.inflight) != 0 || !m.status.bad || !strings.Contains(m.status.text, "stuck: ReplicaSet has timed out progressing") {
		t.Fatalf("stuck rollout: inflight %d status %+v", len(m.inflight), m.status)
	}
	if !strings.Contains(plainView(m), "stuck 1/3") {
		t.Fatalf("row does not say stuck:\n%s", plainView(m))
	}
}

func TestRestartWithoutRolloutIsGivenUp(t *testing.T) {
	r := allowed()
	m, src := newTestModel(t, r, orgAdmin(), Options{}, 120, 30)
	selectApp(t, m, "explorer")
	press(m, "r", "y")
	m.Update(snapshotMsg{src.Snapshot()}) // nothing changed on the workload
	key := model.Key{Cluster: "prod", Namespace: "hanzo-testnet", Name: "explorer"}
	// The use case's one rollout timeout, shortened: the fake's rollout never ends.
	_, err := restart.New(r, restart.Policy{RolloutTimeout: 20 * time.Millisecond}).Follow(context.Background(), restart.FollowInput{Key: key})
	m.Update(followedMsg{key: key, err: err})
	if len(m.inflight) != 0 || !strings.Contains(m.status.text, "not complete after 20ms") || !m.status.bad {
		t.Fatalf("inflight %d status %+v", len(m.inflight), m.status)
	}
}
