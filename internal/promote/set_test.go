package promote_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/internal/promote"
)

// A set is one pull request, one commit with every file: two Apps of one
// multi-document file both edited in it, refused Apps named and left out.
func TestPlanSetOnePullRequest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := seeded(t)
	var reqs []promote.Request
	for _, app := range []string{"gateway", "commerce", "iam", "commerce-worker"} {
		reqs = append(reqs, request(app))
	}
	s, err := promote.PlanSet(ctx, g, onGitHub, reqs)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Plans) != 3 || len(s.Refused) != 1 || s.Refused[0].Key.Name != "iam" || !strings.Contains(s.Refused[0].Reason, "declared in 2 files") {
		t.Fatalf("plans %d, refused %+v", len(s.Plans), s.Refused)
	}
	if len(s.Change.Files) != 2 || s.Change.Files[0].Path != crsDir+"/gateway-v1.yaml" || s.Change.Files[1].Path != crsDir+"/commerce-v1.yaml" {
		t.Fatalf("files %+v", s.Change.Files)
	}
	base := string(g.File(universe, "main", crsDir+"/commerce-v1.yaml"))
	if got := string(s.Change.Files[1].Content); got != strings.ReplaceAll(base, `tag: "2.4.0"`, `tag: "v1.9.0"`) {
		t.Errorf("commerce-v1.yaml in the set:\n%s", got)
	}
	if !strings.HasPrefix(s.Change.Branch, "driftboard/main/set-") || !strings.HasPrefix(s.Change.Title, "promote 3 apps: gateway → v1.9.0, commerce → v1.9.0") {
		t.Errorf("branch %q title %q", s.Change.Branch, s.Change.Title)
	}
	if _, err := promote.ProposeSet(ctx, g, s, promote.Confirmation{Yes: true}); !isRefused(err) || !strings.Contains(err.Error(), `type "promote 3 apps"`) {
		t.Fatalf("production in the set confirmed by y: %v", err)
	}
	pr, err := promote.ProposeSet(ctx, g, s, promote.Confirmation{Typed: "promote 3 apps"})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(g.File(universe, pr.HeadSHA, crsDir+"/gateway-v1.yaml")); !strings.Contains(got, "tag: v1.9.0 # pinned") {
		t.Errorf("gateway on the branch:\n%s", got)
	}
	if again, err := promote.ProposeSet(ctx, g, s, promote.Confirmation{Typed: "promote 3 apps"}); err != nil || !again.Reused {
		t.Errorf("the same set again: %+v, %v", again, err)
	}
}
