package cli

import (
	"context"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// A pod prints one 64 MiB line (the runtime's partial records, which the
// kubelet joins without a newline): driftboard logs, through the real API
// server, prints it cut at 16 KiB and marked, and its heap never holds the
// line. With -f, a pod that never prints a newline shows its cut line at
// once instead of growing it until the memory runs out.
func TestLogsCutEndlessLinesAgainstAPIServer(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{Controllers: true})
	c.CreateNamespaces("hanzo")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	dir := t.TempDir()
	current, previous := filepath.Join(dir, "current.log"), filepath.Join(dir, "previous.log")
	f, err := os.Create(current)
	must(t, err)
	must(t, writeString(f, criLine("2026-12-01T05:00:00Z", "line one")))
	part := "2026-12-01T05:00:01Z stdout P " + strings.Repeat("x", 32<<10) + "\n"
	for range 2048 { // 64 MiB
		must(t, writeString(f, part))
	}
	must(t, writeString(f, criLine("2026-12-01T05:00:02Z", "tail of the long line")+criLine("2026-12-01T05:00:03Z", "after")))
	must(t, f.Close())
	// The previous instance never ended its line.
	must(t, os.WriteFile(previous, []byte(strings.Repeat(part, 8)), 0o600))
	must(t, c.StartLogNode(ctx, current, previous))
	app, err := c.CreateApp(ctx, "hanzo", "iam", "iam", "ghcr.io/hanzoai/iam", "v1.2.3", 1)
	must(t, err)
	d := testcluster.OperatorDeployment(app)
	d.Spec.Template.Spec.NodeName = testcluster.LogNodeName
	_, err = c.AdminClient().AppsV1().Deployments("hanzo").Create(ctx, d, metav1.CreateOptions{})
	must(t, err)
	waitReady(ctx, t, c, "hanzo", "iam")
	e := newEnv(t)
	base := []string{"logs", "hanzo/iam", "--kubeconfig", c.KubeconfigPath(), "--releases=off"}

	before, peak := heapPeak(t)
	r := e.run(t, base...)
	grew := peak() - before
	r.expect(t, ExitOK)
	cut := strings.Repeat("x", 16<<10) + " …(line cut)\n"
	if want := "line one\n" + cut + "after\n"; r.out != want {
		t.Errorf("logs: %d bytes, want the first line, the long one cut at 16 KiB and marked, and the next:\n%.300q…", len(r.out), r.out)
	}
	t.Logf("heap grew by at most %d KiB while a 64 MiB line streamed", grew>>10)
	if grew > 24<<20 {
		t.Errorf("the heap grew by %d MiB while a 64 MiB line streamed: the line was held", grew>>20)
	}

	// -f --previous: the line never ends; its first 16 KiB show at once.
	fctx, stop := context.WithCancel(ctx)
	var buf syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Run(fctx, append(base, "-f", "--previous"), Streams{In: strings.NewReader(""), Out: &buf, Err: &buf,
			Getenv: func(k string) string { return e.vars[k] }})
	}()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(buf.String(), "…(line cut)") && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if got := buf.String(); got != cut {
		t.Errorf("-f of a line without end: %d bytes, want its first 16 KiB, marked cut:\n%.300q", len(got), got)
	}
	stop()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("-f did not stop when its context ended")
	}
}

func writeString(f *os.File, s string) error {
	_, err := f.WriteString(s)
	return err
}

// heapPeak samples the live heap every few milliseconds until the returned
// function is called, which stops it and returns the highest sample.
func heapPeak(t *testing.T) (before uint64, peak func() uint64) {
	t.Helper()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	before = read()
	var high atomic.Uint64
	high.Store(before)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			if v := read(); v > high.Load() {
				high.Store(v)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	return before, func() uint64 { close(stop); <-done; return high.Load() }
}
