package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// t0 is the fixed clock of every test.
var t0 = time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)

func fixedNow() time.Time { return t0 }

// storeSource adapts a store.Store to Source with the capacity-1 coalescing
// channel the fleet uses.
type storeSource struct {
	*store.Store
	ch chan struct{}
}

func newStoreSource() *storeSource {
	return &storeSource{Store: store.New(), ch: make(chan struct{}, 1)}
}

func (s *storeSource) Changed() <-chan struct{} { return s.ch }

// Settled is closed: the fixture fleet has no first sync to wait for.
func (s *storeSource) Settled() <-chan struct{} { return settled }

func (s *storeSource) signal() {
	select {
	case s.ch <- struct{}{}:
	default:
	}
}

func (s *storeSource) upsert(vs ...model.AppView) {
	for _, v := range vs {
		s.Store.Upsert(v)
	}
	s.signal()
}

// app describes one fixture row; build turns it into an AppView through
// model.Build, the same path the fleet uses.
type app struct {
	cluster, ns, name, role   string
	declared, running, latest string
	replicas, ready, updated  int32
	release                   model.ReleaseState
	assets                    int
	noWorkload, paused, stuck bool
	legacy                    bool // the workload has no controller reference to its App
	restartedAt, restartedBy  string
	generation, observedGen   int64
	published                 time.Time // the latest release's publication
}

func (a app) build() model.AppView {
	if a.cluster == "" {
		a.cluster = "prod"
	}
	if a.release == "" {
		a.release = model.ReleaseFound
	}
	if a.replicas == 0 {
		a.replicas = 2
	}
	repo := "ghcr.io/hanzoai/" + a.name
	obj := model.AppObject{
		Key:             model.Key{Cluster: a.cluster, Namespace: a.ns, Name: a.name},
		Kind:            "App",
		Role:            a.role,
		ImageRepository: repo,
		ImageTag:        a.declared,
		Phase:           "Running",
		Endpoints:       []string{"https://" + a.name + ".hanzo.ai"},
		Labels:          map[string]string{"app.kubernetes.io/name": a.name},
	}
	rel := model.Release{State: a.release, LatestTag: a.latest, LatestPublished: a.published, Assets: a.assets, CheckedAt: t0}
	if a.release == model.ReleaseFound {
		rel.URL = "https://github.com/hanzoai/" + a.name + "/releases/tag/" + a.declared
	}
	if a.noWorkload {
		return model.Build(obj, nil, rel, t0)
	}
	r := a.replicas
	wl := &model.Workload{
		Kind: model.KindDeployment, Name: a.name, OwnedByApp: !a.legacy,
		Generation: a.generation, ObservedGeneration: a.observedGen,
		Replicas: &r, ReadyReplicas: a.ready, UpdatedReplicas: a.updated, AvailableReplicas: a.ready,
		Paused:              a.paused,
		Containers:          []model.Container{{Name: a.name, Image: repo + ":" + a.running}},
		TemplateAnnotations: map[string]string{},
	}
	if a.restartedAt != "" {
		wl.TemplateAnnotations[model.RestartedAtAnnotation] = a.restartedAt
		wl.TemplateAnnotations[model.RestartedByAnnotation] = a.restartedBy
	}
	if a.stuck {
		wl.Conditions = []model.Condition{{Type: "Progressing", Status: "False", Reason: "ProgressDeadlineExceeded", Message: "ReplicaSet has timed out progressing."}}
	}
	return model.Build(obj, wl, rel, t0)
}

// fleet is the standard fixture: every severity, several envs, a rollout,
// a missing workload, a floating tag.
func fleet() []model.AppView {
	return []model.AppView{
		app{ns: "hanzo", name: "iam", declared: "v1.4.0", running: "v1.4.0", latest: "v1.4.0", ready: 2, updated: 2, assets: 3}.build(),
		app{ns: "hanzo", name: "kms", declared: "v2.0.1", running: "v2.0.0", latest: "v2.0.1", ready: 2, updated: 1, assets: 2}.build(),
		app{ns: "hanzo-testnet", name: "explorer", declared: "v0.9.0", running: "v0.9.0", latest: "v1.0.0", ready: 2, updated: 2, assets: 1}.build(),
		app{ns: "hanzo-devnet", name: "llm", declared: "latest", running: "latest", latest: "v3.1.0", ready: 1, updated: 2, assets: 0}.build(),
		app{ns: "tenant-acme", name: "console", declared: "v1.2.3", running: "v1.2.3", latest: "v1.2.3", ready: 2, updated: 2, release: model.ReleaseNone}.build(),
		app{ns: "hanzo-mainnet", name: "gateway", role: "ingress", declared: "v5.0.0", latest: "v5.0.0", noWorkload: true, assets: 4}.build(),
		app{ns: "hanzo-testnet", name: "queue", declared: "v1.0.0", running: "v1.0.0", latest: "v1.0.0", ready: 1, updated: 1, assets: 1, replicas: 3}.build(),
	}
}

// fakeIdentity is a logged-in (or not) user.
type fakeIdentity struct {
	state  IdentityState
	prompt LoginPrompt
	login  chan error // Login waits for a value here
}

func (f *fakeIdentity) Current() IdentityState { return f.state }

func (f *fakeIdentity) Login(ctx context.Context, prompt func(LoginPrompt)) error {
	prompt(f.prompt)
	select {
	case err := <-f.login:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func orgAdmin() *fakeIdentity {
	p := model.NewPrincipal(model.Claims{Subject: "u1", PreferredUsername: "alice", Orgs: []model.OrgRole{{Org: "hanzo", Role: "admin"}}})
	return &fakeIdentity{state: IdentityState{Principal: &p, Expiry: t0.Add(42 * time.Minute), Source: "test"}, login: make(chan error, 1)}
}

// newTestModel is a sized board over the fixture fleet with its first
// snapshot applied.
func newTestModel(t testing.TB, r actions, id Identity, opts Options, w, h int) (*Model, *storeSource) {
	t.Helper()
	src := newStoreSource()
	src.upsert(fleet()...)
	src.SetClusters([]model.ClusterState{{Name: "prod", Phase: model.ConnLive, Since: t0.Add(-time.Hour)}})
	if opts.Now == nil {
		opts.Now = fixedNow
	}
	dark := true
	if opts.DarkBackground == nil {
		opts.DarkBackground = &dark
	}
	var m *Model
	if id == nil {
		m = newModel(context.Background(), fleetUnder(src, r, restart.Policy{ReadOnly: opts.ReadOnly}), nil, opts)
	} else {
		m = newModel(context.Background(), fleetUnder(src, r, restart.Policy{ReadOnly: opts.ReadOnly}), id, opts)
		m.Update(identityMsg{id.Current()})
	}
	t.Cleanup(m.cancel)
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.Update(snapshotMsg{src.Snapshot()})
	return m, src
}

// press sends keys by name ("j", "enter", "esc", "ctrl+c", "G", ...) and
// runs the Cmds that do not block (checks, restarts) synchronously.
func press(m *Model, keys ...string) {
	for _, k := range keys {
		_, cmd := m.Update(keyMsg(k))
		runSyncIfQuick(m, cmd)
	}
}

// typeText presses one key per rune.
func typeText(m *Model, s string) {
	for _, r := range s {
		press(m, string(r))
	}
}

func keyMsg(k string) tea.KeyPressMsg {
	special := map[string]rune{
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "up": tea.KeyUp, "down": tea.KeyDown,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd,
		"backspace": tea.KeyBackspace, "space": tea.KeySpace,
	}
	if c, ok := special[k]; ok {
		return tea.KeyPressMsg{Code: c}
	}
	if c, ok := strings.CutPrefix(k, "ctrl+"); ok && len(c) == 1 {
		return tea.KeyPressMsg{Code: rune(c[0]), Mod: tea.ModCtrl}
	}
	r := []rune(k)
	if len(r) != 1 {
		panic(fmt.Sprintf("keyMsg: unknown key %q", k))
	}
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

// runSyncIfQuick runs cmd and feeds back the messages that answer actions
// (checks, restarts, identity, login); commands that block (waiting for
// changes, timers) are dropped after a short wait.
func runSyncIfQuick(m *Model, cmd tea.Cmd) {
	feedBack(m, cmd, 50*time.Millisecond, func(msg tea.Msg) bool {
		switch msg.(type) {
		case checkedMsg, restartedMsg, followedMsg, identityMsg, loginPromptMsg, loginDoneMsg, promotePlannedMsg, promoteOpenedMsg,
			promoteMergedMsg, promoteSyncedMsg:
			return true
		}
		return false
	})
}

// feedBack runs cmd (a batch's commands one by one) and feeds each message
// for which answers is true back into m, then the command that follows; a
// command still running after wait is dropped.
func feedBack(m *Model, cmd tea.Cmd, wait time.Duration, answers func(tea.Msg) bool) {
	if cmd == nil {
		return
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-ch:
	case <-time.After(wait):
		return
	}
	if batch, ok := msg.(tea.BatchMsg); ok {
		for _, c := range batch {
			feedBack(m, c, wait, answers)
		}
		return
	}
	if answers(msg) {
		_, next := m.Update(msg)
		feedBack(m, next, wait, answers)
	}
}

// plainView is the screen as text: the frame with ANSI stripped, each line
// padded to the terminal's width with the blanks the renderer clears the
// screen to (the frame leaves them out: tidy.go).
func plainView(m *Model) string { return padLines(ansi.Strip(m.View().Content), m.width) }

func padLines(s string, w int) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw < w {
			lines[i] = l + strings.Repeat(" ", w-lw)
		}
	}
	return strings.Join(lines, "\n")
}
