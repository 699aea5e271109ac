package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/demo/demogithub"
	"github.com/hanzoai/driftboard/internal/githubforge"
	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/query"
)

// promote -q: one pull request for the set, the refused named; a production
// set is promoted with --yes only when the query names env:main.
func TestPromoteSetOnePullRequest(t *testing.T) {
	universe := promote.Repo{Owner: "hanzoai", Name: "universe"}
	g := demogithub.New("octo-engineer", time.Now)
	g.AddRepo(universe, "main", map[string]string{"crs/gateway-v1.yaml": gatewayCR,
		"crs/kms-v1.yaml": strings.ReplaceAll(strings.ReplaceAll(gatewayCR, "gateway", "kms"), "v1.8.2 #", "\"{{ .Values.tag }}\" #")})
	cd := &model.CDApplication{Group: "apps.hanzo.ai", Namespace: "hanzo-cd", Name: "universe-crs",
		RepoURL: "https://github.com/hanzoai/universe", Path: "crs", TargetRevision: "main"}
	req := func(app string, env model.Env) promote.Request {
		return promote.Request{To: "latest", Lookup: promote.Lookup{Applications: []*model.CDApplication{cd}},
			Row: &model.AppView{App: app, Namespace: "hanzo", Cluster: "test", Env: env, Kind: "App", DeclaredTag: "v1.8.2", LatestTag: "v1.9.0",
				Release: model.Release{State: model.ReleaseFound}, Git: model.GitSync{Application: "apps.hanzo.ai/hanzo-cd/universe-crs"}}}
	}
	repoOf := func(u string) (promote.Repo, error) { return githubforge.ParseRepoURL(u, "github.com") }
	reqs := []promote.Request{req("gateway", model.EnvMain), req("kms", model.EnvMain)}
	a := newApp(Streams{})
	ctx := context.Background()

	var out bytes.Buffer
	o := promoteOptions{to: "latest", dryRun: true, output: "text"}
	q, _ := query.Parse("env:main")
	if err := o.proposeSet(ctx, a, q, reqs, g, repoOf, setFollow{}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"One pull request on hanzoai/universe (base main)", "test/hanzo/gateway: v1.8.2 → v1.9.0  crs/gateway-v1.yaml line 11",
		"+    tag: v1.9.0 # moved by pull request", "refused test/hanzo/kms: ", "templated"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("--dry-run lacks %q:\n%s", want, out.String())
		}
	}
	o = promoteOptions{to: "latest", yes: true, output: "json"}
	nameless, _ := query.Parse("gate")
	if err := o.proposeSet(ctx, a, nameless, reqs, g, repoOf, setFollow{}, &out); err == nil || !strings.Contains(err.Error(), "only when the query names env:main") {
		t.Fatalf("a production set with --yes and no env:main: %v", err)
	}
	out.Reset()
	if err := o.proposeSet(ctx, a, q, reqs, g, repoOf, setFollow{}, &out); err != nil {
		t.Fatal(err)
	}
	var rep setReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || rep.PR == nil || len(rep.Plans) != 1 || len(rep.Refused) != 1 {
		t.Fatalf("json %s: %+v %v", out.String(), rep, err)
	}
	if !strings.Contains(string(g.File(universe, rep.PR.HeadSHA, "crs/gateway-v1.yaml")), "tag: v1.9.0 #") {
		t.Error("the set's branch lacks gateway's new tag")
	}
}
