package promote_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/demo/demogithub"
	"github.com/hanzoai/driftboard/internal/githubforge"
	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/model"
)

// onGitHub reads repoURLs as the GitHub forge does, on github.com.
func onGitHub(u string) (promote.Repo, error) { return githubforge.ParseRepoURL(u, "github.com") }

var (
	universe = promote.Repo{Owner: "hanzoai", Name: "universe"}
	crsDir   = "infra/k8s/operator/crs"
	clock    = time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
)

// seeded is a GitHub holding the universe repository with testdata's CR
// files under crsDir on main, plus a file elsewhere.
func seeded(t *testing.T) *demogithub.GitHub {
	t.Helper()
	files := map[string]string{"README.md": "universe\n", "infra/k8s/other/gateway.yaml": "kind: ConfigMap\n"}
	entries, err := os.ReadDir("testdata/universe")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("testdata/universe", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[crsDir+"/"+e.Name()] = string(b)
	}
	g := demogithub.New("octo-engineer", func() time.Time { return clock })
	g.AddRepo(universe, "main", files)
	return g
}

// universeCRs is the Application that syncs the CR files.
func universeCRs() *model.CDApplication {
	return &model.CDApplication{Cluster: "prod", Group: "apps.hanzo.ai", Namespace: "hanzo-cd", Name: "universe-crs",
		RepoURL: "https://github.com/hanzoai/universe.git", Path: crsDir, TargetRevision: "main",
		Revision: "0123456789abcdef0123456789abcdef01234567", SyncStatus: "Synced"}
}

// row is an App row the Application lists.
func row(app string) *model.AppView {
	return &model.AppView{App: app, Namespace: "hanzo", Cluster: "prod", Env: model.EnvMain, Kind: "App",
		Repo: "hanzoai/" + app, DeclaredTag: "v1.8.2", RunningTag: "v1.8.2", LatestTag: "v1.9.0",
		Git: model.GitSync{State: model.GitSynced, Application: "apps.hanzo.ai/hanzo-cd/universe-crs", Path: crsDir}}
}
