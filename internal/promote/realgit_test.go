package promote_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/githubforge"
	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/internal/testing/githubtest"
	"github.com/hanzoai/driftboard/model"
)

// The promotion through the GitHub forge against the GitHub test server
// backed by a real git repository: the declaring file found among
// real-shaped CR files, a pull request whose git diff is exactly the tag's
// line, refusals that write nothing, a real merge whose SHA the follow
// reads.
func TestPromotionAgainstRealGit(t *testing.T) {
	t.Parallel()
	files := map[string]string{"README.md": "universe\n"}
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
	s := githubtest.New(t, githubtest.Options{Files: files})
	s.AddToken("gho_writer", "octocat", githubtest.Write)
	f, err := githubforge.New(githubforge.Config{APIURL: s.APIURL(), Token: "gho_writer", HTTPClient: s.Client(),
		Getenv: func(string) string { return "" }, TokenStore: func(string) (string, string) { return "", "" }})
	if err != nil {
		t.Fatal(err)
	}
	repoOf := func(u string) (promote.Repo, error) { return githubforge.ParseRepoURL(u, f.Host()) }
	ctx := context.Background()
	cd := universeCRs()
	cd.RepoURL = strings.TrimSuffix(s.URL, "/") + "/hanzoai/universe.git"
	req := func(app string) promote.Request {
		r := request(app)
		r.Lookup.Applications = []*model.CDApplication{cd}
		return r
	}

	for app, says := range map[string]string{"iam": "declared in 2 files", "kms": "template", "billing": "no file under"} {
		if _, err := promote.Plan(ctx, f, repoOf, req(app)); !isRefused(err) || !strings.Contains(err.Error(), says) {
			t.Errorf("%s: %v, want a refusal saying %q", app, err, says)
		}
	}
	p, err := promote.Plan(ctx, f, repoOf, req("ledger")) // CRLF, "18" quoted
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Writes()) != 0 {
		t.Fatalf("planning wrote: %+v", s.Writes())
	}
	base := s.Head("main")
	pr, err := promote.Propose(ctx, f, p, promote.Confirmation{Typed: "ledger"})
	if err != nil {
		t.Fatal(err)
	}
	diff := s.Git("diff", "--numstat", base, pr.HeadSHA)
	if strings.TrimSpace(diff) != "1\t1\t"+crsDir+"/ledger-v1.yaml" {
		t.Errorf("the pull request's diff: %q, want one line in ledger-v1.yaml", diff)
	}
	body := s.Git("diff", "-U0", base, pr.HeadSHA)
	if !strings.Contains(body, "-    tag: \"18\"\r\n+    tag: \"v1.9.0\"\r") {
		t.Errorf("the line changed, CRLF kept:\n%q", body)
	}
	if s.Head("main") != base {
		t.Fatal("the base branch moved")
	}
	s.SetStatus(pr.HeadSHA, "ci", "success")
	pr, err = f.PullRequest(ctx, universe, pr.Number)
	if err != nil {
		t.Fatal(err)
	}
	merged, err := promote.Merge(ctx, f, pr, p.PromotionPlan, promote.Confirmation{Typed: "ledger"})
	if err != nil {
		t.Fatal(err)
	}
	if merged.MergeSHA == "" || s.Head("main") != merged.MergeSHA {
		t.Fatalf("merge SHA %q, main at %q", merged.MergeSHA, s.Head("main"))
	}
	cd.Revision = merged.MergeSHA
	prom := promote.Started(p.Key, p.To, pr, time.Now())
	prom, err = promote.Follow(ctx, f, universe, prom, promote.Observed{Row: req("ledger").Row, CD: cd}, model.DefaultPromotionBudgets, time.Now())
	if err != nil || prom.Step != model.PromotionSynced || prom.MergeSHA != merged.MergeSHA {
		t.Fatalf("followed: %+v, %v", prom, err)
	}
}
