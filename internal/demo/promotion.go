package demo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/hanzoai/driftboard/internal/demo/demogithub"
	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/internal/promote/yamledit"
)

// Promotions in the demo: its GitHub holds the universe repository with the
// App CRs universe-crs syncs (one file per App name, one document per
// namespace, as infra/k8s/operator/crs holds them); a pull request's checks
// pass a little after it opens; and its Hanzo CD applies a sync operation's
// revision to the App CRs it lists, on either cluster, then reports the
// revision synced. The operator then rolls the workload as for any new tag.

// DemoLogin is the GitHub account the demo's promotions are opened as.
const DemoLogin = "demo-engineer"

// Universe is the demo's repository of App CRs.
var Universe = promote.Repo{Owner: "hanzoai", Name: "universe"}

const (
	crsPath    = "infra/k8s/operator/crs"
	checksTake = 40 * time.Second // simulated: a pull request's CI
)

// GitHub is the demo's GitHub, the promotion's Forge.
func (d *Demo) GitHub() *demogithub.GitHub { return d.sim.gh }

// crFile is the file that declares App a.
func crFile(a *appPlan) string { return crsPath + "/" + a.name + "-v1.yaml" }

// seedUniverse writes every App CR universe-crs syncs into the demo's git.
func (s *sim) seedUniverse() {
	s.gh = demogithub.New(DemoLogin, s.now)
	files, seen := map[string]string{}, map[string]bool{}
	for _, a := range s.plan.apps {
		if !cdManages(a) || a.repo == "" || a.sc == scBadImage || seen[a.ns+"/"+a.name] {
			continue // an App on both clusters is declared once: both sync the same path
		}
		seen[a.ns+"/"+a.name] = true
		if prev := files[crFile(a)]; prev != "" {
			files[crFile(a)] = prev + "---\n"
		}
		files[crFile(a)] += crDocument(a)
	}
	s.gh.AddRepo(Universe, "main", files)
}

func crDocument(a *appPlan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s in %s: synced by Hanzo CD (universe-crs)\napiVersion: hanzo.ai/v1\nkind: %s\nmetadata:\n  name: %s\n  namespace: %s\nspec:\n", a.name, a.ns, a.kind, a.name, a.ns)
	if a.role != "" {
		fmt.Fprintf(&b, "  role: %s\n", a.role)
	}
	tag := a.declared
	if tag == "" || (tag[0] >= '0' && tag[0] <= '9') {
		tag = strconv.Quote(tag) // 18, 1.10: a string, not a number
	}
	fmt.Fprintf(&b, "  image:\n    repository: %s/%s\n    tag: %s\n", registryHost, a.repo, tag)
	return b.String()
}

// commitTag is a git bump in the demo's git: the App's one line changed on
// main, as an engineer's commit.
func (s *sim) commitTag(a *appPlan, tag string) {
	content := s.gh.File(Universe, "main", crFile(a))
	if content == nil {
		return
	}
	if e, err := yamledit.SetTag(content, yamledit.App{Name: a.name, Namespace: a.ns}, tag); err == nil {
		s.gh.Commit(Universe, "main", crFile(a), e.Content, fmt.Sprintf("%s: %s → %s", a.name, e.From, tag))
	}
}

// promotionsTick passes the checks of pull requests open long enough and
// runs the sync operations asked of universe-crs.
func (s *sim) promotionsTick(ctx context.Context, now time.Time) {
	prs, _ := s.gh.OpenPullRequests(ctx, Universe, "")
	for _, pr := range prs {
		if pr.Checks == promote.ChecksPending && now.Sub(pr.OpenedAt) >= s.scale(checksTake) {
			s.gh.SetChecks(Universe, pr.Number, promote.ChecksPassed)
		}
	}
	for _, name := range clusterNames {
		s.cdSync(ctx, s.clusters[name], now)
	}
}

// cdSync applies universe-crs's sync operation on one cluster: every App
// CR it manages there gets the tag the revision declares.
func (s *sim) cdSync(ctx context.Context, fc *fakeCluster, now time.Time) {
	ri := fc.dyn.Resource(cdAppsGVR).Namespace(cdNamespace)
	u, err := ri.Get(ctx, "universe-crs", metav1.GetOptions{})
	if err != nil {
		return
	}
	rev, _, _ := unstructured.NestedString(u.Object, "operation", "sync", "revision")
	if rev == "" {
		return
	}
	by, _, _ := unstructured.NestedString(u.Object, "operation", "initiatedBy", "username")
	for _, a := range s.plan.apps {
		if a.cluster != fc.name || !cdManages(a) {
			continue
		}
		tag, ok := declaredTag(s.gh.File(Universe, rev, crFile(a)), a)
		if !ok {
			continue
		}
		cr := fc.dyn.Resource(crGVR(a.kind)).Namespace(a.ns)
		obj, err := cr.Get(ctx, a.name, metav1.GetOptions{})
		if err != nil {
			continue
		}
		if cur, _, _ := unstructured.NestedString(obj.Object, "spec", "image", "tag"); cur == tag {
			continue
		}
		if unstructured.SetNestedField(obj.Object, tag, "spec", "image", "tag") == nil {
			if _, err := cr.Update(ctx, obj, metav1.UpdateOptions{}); err == nil {
				s.journal.add(now, "cd: universe-crs syncs %s on %s (asked by %s): %s/%s declares %s", rev[:7], fc.name, by, a.ns, a.name, tag)
			}
		}
	}
	delete(u.Object, "operation")
	_ = unstructured.SetNestedField(u.Object, rev, "status", "sync", "revision")
	_ = unstructured.SetNestedField(u.Object, "Synced", "status", "sync", "status")
	_ = unstructured.SetNestedField(u.Object, map[string]any{"phase": "Succeeded", "message": "successfully synced (all tasks run)",
		"finishedAt": now.UTC().Format(time.RFC3339)}, "status", "operationState")
	_, _ = ri.Update(ctx, u, metav1.UpdateOptions{})
}

// declaredTag is the tag the App document of a in content declares.
func declaredTag(content []byte, a *appPlan) (string, bool) {
	dec := yaml.NewDecoder(bytes.NewReader(content))
	for {
		var doc struct {
			Kind     string `yaml:"kind"`
			Metadata struct{ Name, Namespace string }
			Spec     struct {
				Image struct{ Tag string }
			}
		}
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) || err != nil {
			return "", false
		}
		if doc.Kind == a.kind && doc.Metadata.Name == a.name && doc.Metadata.Namespace == a.ns {
			return doc.Spec.Image.Tag, true
		}
	}
}
