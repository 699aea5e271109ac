package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// belRow is an App whose role, image and tag carry a BEL (0x07): its problem
// texts and drift messages quote them.
func belRow(now time.Time) *model.AppView {
	app := model.AppObject{Key: model.Key{Cluster: "prod", Namespace: "hanzo", Name: "api"}, Kind: "App", Role: "svc\a",
		ImageRepository: "ghcr.io/hanzoai/api\a", ImageTag: "v1\a"}
	r := model.Build(app, nil, model.Release{State: model.ReleaseOff}, now)
	return &r
}

// A control character reads the same in every text output, whether it
// sits in a cell or inside a problem's or a flag's sentence: \x07, never
// Go's \a. JSON keeps the exact value (encoding/json's \u0007).
func TestControlCharactersHaveOneSpelling(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	r := belRow(now)
	var get, list, js bytes.Buffer
	if err := writeDetail(textOut(&get), r, now); err != nil {
		t.Fatal(err)
	}
	if err := writeTable(textOut(&list), []*model.AppView{r}, true, now); err != nil {
		t.Fatal(err)
	}
	if err := writeJSON(&js, newListOutput([]*model.AppView{r})); err != nil {
		t.Fatal(err)
	}
	for what, want := range map[string][]string{
		get.String():  {`role svc\x07`, `Role "svc\x07" is unknown`, `Declared tag "v1\x07"`, `path component "api\x07"`},
		list.String(): {`v1\x07`},
	} {
		for _, w := range want {
			if !strings.Contains(what, w) {
				t.Errorf("lacks %q:\n%s", w, what)
			}
		}
		if strings.Contains(what, `\a`) {
			t.Errorf("a second spelling (\\a):\n%s", what)
		}
	}
	if strings.Contains(js.String(), `\\a`) || !strings.Contains(js.String(), `Role \"svc\u0007\" is unknown`) {
		t.Errorf("JSON: want the exact value, encoding/json-escaped:\n%s", js.String())
	}
	var back ListOutput
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	for _, p := range back.Apps[0].Problems {
		if p.Kind == model.ProblemUnknownRole && p.Text != "Role \"svc\a\" is unknown to the operator: it makes nothing (Degraded, UnknownRole)." {
			t.Errorf("JSON problem text: %q", p.Text)
		}
	}
}
