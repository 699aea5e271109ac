package query

import (
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/modeltest"
)

// TestQueryHealthSyncing: what HEALTH shows for a pending row can be typed
// back, and a pending row is not "unknown" health.
func TestQueryHealthSyncing(t *testing.T) {
	t.Parallel()
	pending := model.Build(modeltest.BaseApp(), modeltest.PendingWorkload(model.KindDeployment), modeltest.FoundRelease(), modeltest.T0)
	listed := model.Build(modeltest.BaseApp(), modeltest.BaseWorkload(), modeltest.FoundRelease(), modeltest.T0)
	q, err := Parse("health:syncing")
	if err != nil {
		t.Fatal(err)
	}
	if !q.Match(&pending) || q.Match(&listed) {
		t.Errorf("health:syncing matches pending %v, listed %v; want true, false", q.Match(&pending), q.Match(&listed))
	}
	if q, _ := Parse("health:unknown"); q.Match(&pending) {
		t.Error("health:unknown matches a pending row")
	}
}

func TestQueryGit(t *testing.T) {
	t.Parallel()
	rows := []*model.AppView{
		{App: "a", Git: model.GitSync{State: model.GitOutOfSync}},
		{App: "b", Git: model.GitSync{State: model.GitSynced}},
		{App: "c", Git: model.GitSync{State: model.GitNotManaged}},
		{App: "d", Git: model.GitSync{State: model.GitUnknown, Why: model.GitWhyNoKind}},
		{App: "e"}, // never looked at: unknown
	}
	for q, want := range map[string]string{
		"git:out-of-sync":      "a",
		"git:outofsync":        "a",
		"git:synced":           "b",
		"git:not-managed":      "c",
		"git:unknown":          "de",
		"-git:synced,unknown":  "ac",
		"git:synced,unmanaged": "bc",
		"git:ok,-":             "bc",
	} {
		pq, err := Parse(q)
		if err != nil {
			t.Fatalf("Parse(%q): %v", q, err)
		}
		got := ""
		for _, r := range rows {
			if pq.Match(r) {
				got += r.App
			}
		}
		if got != want {
			t.Errorf("%s matched %q, want %q", q, got, want)
		}
	}
	if _, err := Parse("git:dirty"); err == nil || !strings.Contains(err.Error(), "git must be one of") {
		t.Errorf("Parse(git:dirty) error = %v", err)
	}
}

// A query names an env only through a positive env term, however it is
// spelled: production is never assumed from a negation or from free text.
func TestQueryNamesEnv(t *testing.T) {
	for q, want := range map[string]bool{
		"env:main":             true,
		"env:test,main":        true,
		"ENV:main":             true,
		`env:"main"`:           true,
		`"env:main" flag:any`:  false, // a quoted whole term is free text
		"env:test":             false,
		"-env:main":            false,
		"-env:main env:test":   false,
		"main":                 false,
		"ns:hanzo":             false,
		"app:iam env:dev,test": false,
	} {
		parsed, err := Parse(q)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if got := parsed.NamesEnv(model.EnvMain); got != want {
			t.Errorf("%q names main = %v, want %v", q, got, want)
		}
	}
}
