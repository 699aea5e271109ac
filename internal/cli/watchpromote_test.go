package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/hanzoai/driftboard/internal/config"
	"github.com/hanzoai/driftboard/internal/demo/demogithub"
	"github.com/hanzoai/driftboard/internal/githubforge"
	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// watch carries each row's promotion on a real API server: none before a
// pull request, its step once one is open (read again on the poll, the
// fleet unchanged), and without a GitHub token unknown with why.
func TestWatchCarriesThePromotion(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo", "hanzo-cd")
	c.InstallApplicationCRD(testcluster.HanzoCDApplicationsGVR.Group)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := c.SeedApp(ctx, "hanzo", "gateway", "service", "ghcr.io/hanzoai/gateway", "v1.8.2", 1); err != nil {
		t.Fatal(err)
	}
	cdApp := &model.CDApplication{Group: "apps.hanzo.ai", Namespace: "hanzo-cd", Name: "universe-crs", RepoURL: "https://github.com/hanzoai/universe", Path: "crs", TargetRevision: "main"}
	_, err := c.AdminDynamic().Resource(testcluster.HanzoCDApplicationsGVR).Namespace("hanzo-cd").Create(ctx, &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps.hanzo.ai/v1alpha1", "kind": "Application", "metadata": map[string]any{"name": cdApp.Name, "namespace": cdApp.Namespace},
		"spec": map[string]any{"source": map[string]any{"repoURL": cdApp.RepoURL, "path": cdApp.Path, "targetRevision": cdApp.TargetRevision}},
		"status": map[string]any{"sync": map[string]any{"status": "Synced"},
			"resources": []any{map[string]any{"group": "hanzo.ai", "kind": "App", "namespace": "hanzo", "name": "gateway", "status": "Synced"}}},
	}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	universe := promote.Repo{Owner: "hanzoai", Name: "universe"}
	g := demogithub.New("octo-engineer", time.Now)
	g.AddRepo(universe, "main", map[string]string{"crs/gateway-v1.yaml": gatewayCR})
	e := newEnv(t)
	args := []string{"--kubeconfig", c.KubeconfigPath(), "-q", "app:gateway"}

	s := startWatchWith(t, e, func(a *app) {
		a.forgeFor = func(config.Effective) (promote.Forge, promote.RepoParser, error) {
			return g, func(u string) (promote.Repo, error) { return githubforge.ParseRepoURL(u, "github.com") }, nil
		}
		a.promotionPoll = 200 * time.Millisecond
	}, args...)
	if ev := s.next(time.Minute, "gateway's current row"); ev.Event.Event != "current" || ev.verdict(true).Promotion == nil || ev.verdict(true).Promotion.Step != "none" {
		t.Fatalf("current row without a pull request: %s", ev.raw)
	}
	s.next(10*time.Second, "the summary")
	row := &model.AppView{App: "gateway", Namespace: "hanzo", Cluster: "test", Env: model.EnvMain, Kind: "App", DeclaredTag: "v1.8.2", LatestTag: "v1.9.0",
		Release: model.Release{State: model.ReleaseFound}, Git: model.GitSync{Application: "apps.hanzo.ai/hanzo-cd/universe-crs"}}
	p, err := promote.Plan(ctx, g, func(u string) (promote.Repo, error) { return githubforge.ParseRepoURL(u, "github.com") },
		promote.Request{Row: row, To: "latest", Lookup: promote.Lookup{Applications: []*model.CDApplication{cdApp}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := promote.Propose(ctx, g, p, promote.Confirmation{Yes: true, Typed: "gateway"}); err != nil {
		t.Fatal(err)
	}
	ev := s.next(30*time.Second, "the promotion's step")
	if v := ev.verdict(true); ev.Event.Event != "changed" || strings.Join(ev.Changed, ",") != "promotion" || v.Promotion == nil ||
		v.Promotion.Step != "pr-open" || v.Promotion.To != "v1.9.0" || v.Promotion.PR != 1 {
		t.Fatalf("after the pull request opened: %s", ev.raw)
	}
	s.quiet(time.Second, "the promotion's step was reported")

	plain := startWatchWith(t, e, nil, args...) // GitHub's own forge, and no token
	if ev := plain.next(time.Minute, "gateway's current row"); ev.verdict(true).Promotion == nil || ev.verdict(true).Promotion.Step != "unknown" ||
		!strings.Contains(ev.verdict(true).Promotion.Why, "no GitHub token") {
		t.Fatalf("current row without a token: %s", ev.raw)
	}
}

// startWatchWith is startWatch on an app that setup changes first.
func startWatchWith(t *testing.T, e *cliEnv, setup func(*app), args ...string) *eventStream {
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	s := &eventStream{t: t, events: make(chan streamEvent, 1000)}
	done := make(chan int, 1)
	go func() {
		var errb strings.Builder
		a := newApp(Streams{In: strings.NewReader(""), Out: pw, Err: &errb, Getenv: func(k string) string { return e.vars[k] }})
		if setup != nil {
			setup(a)
		}
		root := a.rootCommand()
		root.SetArgs(append([]string{"watch", "-o", "jsonl"}, args...))
		root.SetOut(pw)
		root.SetErr(&errb)
		cmd, err := root.ExecuteContextC(ctx)
		a.close()
		pw.Close()
		done <- exitCode(cmd, err, false, func(string, ...any) {})
	}()
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			var ev streamEvent
			if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
				t.Errorf("not a JSON line: %q: %v", sc.Text(), err)
				continue
			}
			ev.raw = sc.Text()
			s.events <- ev
		}
		close(s.events)
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != ExitOK {
			t.Errorf("watch exited %d after cancel", code)
		}
	})
	return s
}
