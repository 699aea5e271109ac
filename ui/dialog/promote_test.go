package dialog

import (
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/keymap"
	"github.com/hanzoai/driftboard/ui/styles"
)

func promoteRow(env model.Env) *model.AppView {
	r := row("hanzo", "gateway", env)
	r.DeclaredTag, r.LatestTag = "v1.8.0", "v1.9.0"
	return r
}

func planned(r *model.AppView, mustType bool) promote.Planned {
	return promote.Planned{PromotionPlan: model.PromotionPlan{
		Key: r.Key(), Env: r.Env, From: "v1.8.0", To: "v1.9.0", NotesURL: "https://github.com/hanzoai/gateway/releases/tag/v1.9.0",
		Repo: "hanzoai/universe", Base: "main", Path: "infra/k8s/operator/crs/gateway.yaml", Line: 12,
		Before: "    tag: v1.8.0", After: "    tag: v1.9.0", Branch: "driftboard/test/gateway-v1.9.0",
		Title: "gateway: v1.8.0 → v1.9.0 (test, c)", Login: "octo", MustType: mustType}}
}

func renderPromote(d *Promote) string {
	st := styles.New(true, true)
	return ansi.Strip(d.Render(&st, 120, "*"))
}

// The dialog shows exactly the plan: App, cluster, env, from → to, the
// repository and base, the file and its one-line diff, the branch and the
// pull request's title, the notes and who it acts as. The default is No:
// enter, n and esc decline; y answers yes, for the use case to decide.
func TestPromoteDialogShowsThePlanDefaultNo(t *testing.T) {
	r := promoteRow(model.EnvTest)
	st := styles.New(true, true)
	d := NewPromote([]*model.AppView{r}, &st, keymap.New())
	if !d.Busy() || !strings.Contains(renderPromote(d), "reading the plan") {
		t.Fatalf("a new dialog plans first:\n%s", renderPromote(d))
	}
	d.Planned(planned(r, false), nil)
	v := renderPromote(d)
	for _, want := range []string{"hanzo/gateway on c (test)", "v1.8.0 → v1.9.0", "hanzoai/universe @ main",
		"infra/k8s/operator/crs/gateway.yaml", "-12:     tag: v1.8.0", "+12:     tag: v1.9.0", "driftboard/test/gateway-v1.9.0",
		"gateway: v1.8.0 → v1.9.0 (test, c)", "releases/tag/v1.9.0", "GitHub user octo", "Open this pull request?"} {
		if !strings.Contains(v, want) {
			t.Errorf("the plan does not show %q:\n%s", want, v)
		}
	}
	for _, no := range []string{"enter", "n", "esc"} {
		if act, ok := press(d, no).(Close); !ok || !strings.Contains(act.Status, "declined") {
			t.Errorf("%s answered %#v, want the decline", no, act)
		}
	}
	act, ok := press(d, "y").(ProposePromotion)
	if !ok || act.D.Confirmation() != (promote.Confirmation{Yes: true}) {
		t.Fatalf("y answered %#v", act)
	}
}

// Production takes the App's name typed: y is not an answer; what was
// typed goes to the use case, and its refusal (a name mistyped) asks again.
func TestPromoteDialogProductionTyped(t *testing.T) {
	r := promoteRow(model.EnvMain)
	st := styles.New(true, true)
	d := NewPromote([]*model.AppView{r}, &st, keymap.New())
	d.Planned(planned(r, true), nil)
	if _, ok := press(d, "y").(None); !ok || !strings.Contains(renderPromote(d), "type gateway") {
		t.Fatalf("production took y, or does not ask for the name:\n%s", renderPromote(d))
	}
	d.typed.SetValue("")
	for _, c := range "gateway" {
		press(d, string(c))
	}
	act, ok := press(d, "enter").(ProposePromotion)
	if !ok || act.D.Confirmation().Typed != "gateway" || act.D.Confirmation().Yes {
		t.Fatalf("typed name answered %#v", act)
	}
	d.Send()
	d.Failed(&promote.Refused{Reason: "gateway is production: type the App's name gateway to confirm"})
	if d.Phase() != PromoteAsk || !strings.Contains(renderPromote(d), "type the App's name") {
		t.Fatalf("a refused answer does not ask again:\n%s", renderPromote(d))
	}
}

// A refusal says its reason and that nothing was written; t picks another
// tag (↓ steps through the releases the board read) and plans it.
func TestPromoteDialogRefusalAndAnotherTag(t *testing.T) {
	r := promoteRow(model.EnvTest)
	st := styles.New(true, true)
	d := NewPromote([]*model.AppView{r}, &st, keymap.New())
	d.Planned(promote.Planned{}, errors.Join(&promote.Refused{Reason: "no GitHub token for github.com: set GH_TOKEN or run gh auth login"}))
	v := renderPromote(d)
	if d.Phase() != PromoteRefused || !strings.Contains(v, "refused: no GitHub token") || !strings.Contains(v, "nothing was written") {
		t.Fatalf("refusal:\n%s", v)
	}
	press(d, "t")
	if d.Phase() != PromoteChoose || d.tag.Value() != "v1.9.0" {
		t.Fatalf("t: phase %d, tag %q", d.Phase(), d.tag.Value())
	}
	for range "v1.9.0" {
		press(d, "backspace")
	}
	for _, c := range "v0.1.0" {
		press(d, string(c))
	}
	act, ok := press(d, "enter").(PlanPromotion)
	if !ok || act.D.To() != "v0.1.0" || !d.Busy() {
		t.Fatalf("enter on a tag answered %#v (to %q)", act, d.To())
	}
	d.Planned(promote.Planned{}, &promote.Refused{Reason: "v0.1.0 is not a release the board read for hanzoai/gateway (read: v1.9.0)"})
	if !strings.Contains(renderPromote(d), "not a release the board read") {
		t.Fatalf("the tag's refusal:\n%s", renderPromote(d))
	}
	if _, ok := press(d, "enter").(Close); !ok {
		t.Fatal("enter does not close a refusal")
	}
}
