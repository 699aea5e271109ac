package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// criLine is one line in the CRI log format kwok serves.
func criLine(at, text string) string { return at + " stdout F " + text + "\n" }

// driftboard logs end to end: kwok serves container logs from files behind
// its kubelet endpoint and the real API server proxies pods/log to it. Two
// pods, --tail, --previous, -c, a hostile line escaped, and -f following a
// line appended later, stopping when its context ends.
func TestLogsAgainstAPIServer(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{Controllers: true})
	c.CreateNamespaces("hanzo")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	current, previous := filepath.Join(dir, "current.log"), filepath.Join(dir, "previous.log")
	must(t, os.WriteFile(current, []byte(criLine("2026-12-01T05:00:00Z", "line one")+criLine("2026-12-01T05:00:01Z", "line two")+
		criLine("2026-12-01T05:00:02Z", "evil \x1b]0;pwned\x07 end")), 0o600))
	must(t, os.WriteFile(previous, []byte(criLine("2026-12-01T04:00:00Z", "crashed before")), 0o600))
	must(t, c.StartLogNode(ctx, current, previous))
	app, err := c.CreateApp(ctx, "hanzo", "iam", "iam", "ghcr.io/hanzoai/iam", "v1.2.3", 2)
	must(t, err)
	d := testcluster.OperatorDeployment(app)
	d.Spec.Template.Spec.NodeName = testcluster.LogNodeName
	_, err = c.AdminClient().AppsV1().Deployments("hanzo").Create(ctx, d, metav1.CreateOptions{})
	must(t, err)
	waitReady(ctx, t, c, "hanzo", "iam")
	e := newEnv(t)
	base := []string{"logs", "hanzo/iam", "--kubeconfig", c.KubeconfigPath(), "--releases=off"}
	run := func(args ...string) string {
		t.Helper()
		r := e.run(t, append(base, args...)...)
		r.expect(t, ExitOK)
		return r.out
	}

	out := run()
	if strings.Count(out, "line one\n") != 2 || strings.Count(out, "] line two\n") != 2 || !strings.HasPrefix(out, "[iam-") {
		t.Errorf("two pods' logs, prefixed:\n%s", out)
	}
	if strings.Contains(out, "\x1b") || !strings.Contains(out, `evil \x1b]0;pwned\x07 end`) {
		t.Errorf("the hostile line was not escaped: %q", out)
	}
	if out := run("--tail", "1"); strings.Contains(out, "line one") || strings.Count(out, "evil") != 2 {
		t.Errorf("--tail 1:\n%s", out)
	}
	if out := run("--previous", "-c", "iam"); strings.Count(out, "crashed before") != 2 || strings.Contains(out, "line one") {
		t.Errorf("--previous:\n%s", out)
	}
	e.run(t, append(base, "-c", "nope")...).expect(t, ExitError, `has no container "nope"`)

	// -f: a line written later arrives; ending the context ends the stream.
	fctx, stop := context.WithCancel(ctx)
	var buf syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Run(fctx, append(base, "-f", "--tail", "0"), Streams{In: strings.NewReader(""), Out: &buf, Err: &buf,
			Getenv: func(k string) string { return e.vars[k] }})
	}()
	time.Sleep(2 * time.Second) // the streams are open
	f, err := os.OpenFile(current, os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	_, err = f.WriteString(criLine("2026-12-01T05:01:00Z", "appended later"))
	must(t, err)
	must(t, f.Close())
	deadline := time.Now().Add(20 * time.Second)
	for strings.Count(buf.String(), "appended later") < 2 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if got := buf.String(); strings.Count(got, "appended later") != 2 || strings.Contains(got, "line one") {
		t.Errorf("-f --tail 0 did not follow the new line:\n%s", got)
	}
	stop()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("-f did not stop when its context ended")
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
