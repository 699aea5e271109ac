package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/internal/changestream"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// streamEvent is one decoded line of `watch -o jsonl`.
type streamEvent struct {
	changestream.Event
	Before json.RawMessage `json:"before"`
	After  json.RawMessage `json:"after"`
	raw    string
}

func (e streamEvent) key() string { return e.Cluster + "/" + e.Namespace + "/" + e.App }

func (e streamEvent) verdict(after bool) changestream.Verdict {
	var v changestream.Verdict
	src := e.Before
	if after {
		src = e.After
	}
	_ = json.Unmarshal(src, &v)
	return v
}

func (e streamEvent) state(after bool) string {
	var v changestream.ClusterView
	src := e.Before
	if after {
		src = e.After
	}
	_ = json.Unmarshal(src, &v)
	return v.State
}

// eventStream runs `driftboard watch` in-process and hands out its lines.
type eventStream struct {
	t      *testing.T
	events chan streamEvent
	seen   []streamEvent
}

func startWatch(t *testing.T, e *cliEnv, args ...string) *eventStream {
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	s := &eventStream{t: t, events: make(chan streamEvent, 1000)}
	done := make(chan result, 1)
	go func() {
		var errb strings.Builder
		code := Run(ctx, append([]string{"watch", "-o", "jsonl"}, args...), Streams{
			In: strings.NewReader(""), Out: pw, Err: &errb,
			Getenv: func(k string) string { return e.vars[k] },
		})
		pw.Close()
		done <- result{code: code, err: errb.String()}
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
		if r := <-done; r.code != ExitOK {
			t.Errorf("watch exited %d after cancel:\n%s", r.code, r.err)
		}
	})
	return s
}

// next returns the next event, failing after timeout.
func (s *eventStream) next(timeout time.Duration, what string) streamEvent {
	s.t.Helper()
	select {
	case ev, ok := <-s.events:
		if !ok {
			s.t.Fatalf("stream ended while waiting for %s", what)
		}
		s.seen = append(s.seen, ev)
		return ev
	case <-time.After(timeout):
		s.t.Fatalf("no event within %s while waiting for %s; seen:\n%s", timeout, what, s.dump())
	}
	return streamEvent{}
}

// quiet fails when any event arrives within d.
func (s *eventStream) quiet(d time.Duration, after string) {
	s.t.Helper()
	select {
	case ev := <-s.events:
		s.t.Fatalf("unexpected event after %s: %s", after, ev.raw)
	case <-time.After(d):
	}
}

func (s *eventStream) dump() string {
	var b strings.Builder
	for _, ev := range s.seen {
		b.WriteString(ev.raw + "\n")
	}
	return b.String()
}

func patchJSON(t *testing.T, c *testcluster.Cluster, ns, name, kind, patch string) {
	t.Helper()
	ctx := context.Background()
	var err error
	switch kind {
	case "App":
		_, err = c.AdminDynamic().Resource(testcluster.AppsGVR).Namespace(ns).Patch(ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
	case "Deployment":
		_, err = c.AdminClient().AppsV1().Deployments(ns).Patch(ctx, name, types.StrategicMergePatchType, []byte(patch), metav1.PatchOptions{})
	}
	if err != nil {
		t.Fatalf("patch %s %s/%s: %v", kind, ns, name, err)
	}
}

// `driftboard watch` against a real API server with kwok: a scripted
// sequence of patches, a rollout, a deletion and an API server restart
// yields exactly the expected events, each once.
func TestWatchStreamsObservedChanges(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{Controllers: true})
	c.CreateNamespaces("hanzo", "hanzo-testnet")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	for _, a := range []struct{ ns, name string }{{"hanzo", "iam"}, {"hanzo", "kv"}, {"hanzo-testnet", "queue"}} {
		if err := c.SeedApp(ctx, a.ns, a.name, "service", "ghcr.io/hanzoai/"+a.name, "v1.2.3", 1); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range []struct{ ns, name string }{{"hanzo", "iam"}, {"hanzo", "kv"}, {"hanzo-testnet", "queue"}} {
		waitReady(ctx, t, c, a.ns, a.name)
	}
	e := newEnv(t)
	s := startWatch(t, e, "--kubeconfig", c.KubeconfigPath(), "--releases=off")

	// The current rows, then the summary; nothing else while idle.
	var current []string
	for range 3 {
		ev := s.next(time.Minute, "the current rows")
		if ev.Event.Event != changestream.KindCurrent || ev.verdict(true).Severity != "ok" || ev.verdict(true).Rollout != "complete" {
			t.Fatalf("want a clean current row, got %s", ev.raw)
		}
		current = append(current, ev.key())
	}
	if want := "test/hanzo/iam test/hanzo/kv test/hanzo-testnet/queue"; strings.Join(current, " ") != want {
		t.Fatalf("current rows %v, want %s", current, want)
	}
	if ev := s.next(10*time.Second, "the summary"); ev.Event.Event != changestream.KindSummary || ev.Summary.Total != 3 ||
		len(ev.Clusters) != 1 || ev.Clusters[0].State != "live" {
		t.Fatalf("want a summary of 3 rows and a live cluster, got %s", ev.raw)
	}
	s.quiet(2*time.Second, "the initial rows")
	checkWatchJSON(t, e, []string{"current", "current", "current", "summary"}, "--kubeconfig", c.KubeconfigPath(), "--releases=off")

	// A new declared tag: one change, the row turns yellow (un-rolled).
	patchJSON(t, c, "hanzo", "iam", "App", `{"spec":{"image":{"tag":"v1.2.4"}}}`)
	ev := s.next(30*time.Second, "iam declared v1.2.4")
	if ev.key() != "test/hanzo/iam" || ev.Event.Event != changestream.KindChanged ||
		strings.Join(ev.Changed, ",") != "verdict,severity,flags,declaredTag" || ev.verdict(true).Verdict != "yellow" ||
		ev.verdict(false).Severity != "ok" || ev.verdict(true).Severity != "yellow" || ev.verdict(true).DeclaredTag != "v1.2.4" {
		t.Fatalf("want iam ok → yellow with declaredTag v1.2.4, got %s", ev.raw)
	}
	s.quiet(2*time.Second, "the App patch")

	// The rollout to v1.2.4 on kwok: a chain of changes, each starting where
	// the last ended, until the row is clean and complete again.
	patchJSON(t, c, "hanzo", "iam", "Deployment",
		`{"spec":{"template":{"spec":{"containers":[{"name":"iam","image":"ghcr.io/hanzoai/iam:v1.2.4"}]}}}}`)
	prev := ev.verdict(true)
	sawRunningChange := false
	for {
		ev = s.next(time.Minute, "the rollout of iam")
		if ev.key() != "test/hanzo/iam" || ev.Event.Event != changestream.KindChanged {
			t.Fatalf("during the rollout, want only iam changes, got %s", ev.raw)
		}
		if before := ev.verdict(false); !reflect.DeepEqual(before, prev) { // by value: Git and Promotion are pointers
			t.Fatalf("change does not start where the last ended:\nlast after %+v\nthis before %+v", prev, before)
		}
		prev = ev.verdict(true)
		sawRunningChange = sawRunningChange || strings.Contains(strings.Join(ev.Changed, ","), "runningTag")
		if prev.RunningTag == "v1.2.4" && prev.Severity == "ok" && prev.Rollout == "complete" && prev.Health == "green" {
			break
		}
	}
	if !sawRunningChange {
		t.Errorf("no event reported the running tag changing")
	}
	s.quiet(3*time.Second, "the rollout")

	// A deletion: its own event, once.
	if err := c.AdminDynamic().Resource(testcluster.AppsGVR).Namespace("hanzo").Delete(ctx, "kv", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	ev = s.next(30*time.Second, "kv deleted")
	if ev.key() != "test/hanzo/kv" || ev.Event.Event != changestream.KindDeleted || ev.verdict(false).Severity != "ok" || len(ev.After) != 0 {
		t.Fatalf("want kv deleted, got %s", ev.raw)
	}
	s.quiet(2*time.Second, "the deletion")

	// The API server restarts: the stream says the cluster is reconnecting
	// and live again, and no row changes (nothing changed).
	c.StopAPIServer()
	ev = s.next(time.Minute, "reconnecting")
	if ev.Event.Event != changestream.KindCluster || ev.state(false) != "live" || ev.state(true) == "live" {
		t.Fatalf("want the cluster leaving live, got %s", ev.raw)
	}
	c.StartAPIServer()
	ev = s.next(2*time.Minute, "live again")
	if ev.Event.Event != changestream.KindCluster || ev.state(true) != "live" {
		t.Fatalf("want the cluster live again, got %s", ev.raw)
	}
	s.quiet(3*time.Second, "the reconnect")

	// The stream still follows changes: a floating tag turns queue red.
	patchJSON(t, c, "hanzo-testnet", "queue", "App", `{"spec":{"image":{"tag":"latest"}}}`)
	ev = s.next(30*time.Second, "queue declared latest")
	if ev.key() != "test/hanzo-testnet/queue" || ev.verdict(true).Severity != "red" || ev.verdict(false).Severity != "ok" {
		t.Fatalf("want queue ok → red, got %s", ev.raw)
	}
	s.quiet(2*time.Second, "the last patch")

	seen := map[string]bool{}
	for _, ev := range s.seen {
		k := fmt.Sprint(ev.Event.Event, ev.key(), string(ev.Before), string(ev.After))
		if seen[k] {
			t.Errorf("event reported twice: %s", ev.raw)
		}
		seen[k] = true
	}
	t.Logf("stream:\n%s", s.dump())
}
