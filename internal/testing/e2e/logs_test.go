package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
	"github.com/hanzoai/driftboard/ui"
)

// The board's log view end to end: kwok serves the container's log from a
// file behind its kubelet endpoint and the real API server proxies pods/log
// to it. l streams (following: a line appended later appears), a fast
// writer fills more than the view keeps (it says how many it dropped), p
// reads the previous instance, and q ends the request: the API server's
// audit log completes every pods/log request it started.
func TestLogViewAgainstAPIServer(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{Controllers: true})
	c.CreateNamespaces("hanzo")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	current, previous := filepath.Join(dir, "current.log"), filepath.Join(dir, "previous.log")
	write(t, current, os.O_CREATE|os.O_TRUNC, criLine("line one"), criLine("line two"), criLine("evil \x1b]0;pwned\x07 end"))
	write(t, previous, os.O_CREATE|os.O_TRUNC, criLine("crashed before"), criLine("panic: nil map"))
	if err := c.StartLogNode(ctx, current, previous); err != nil {
		t.Fatal(err)
	}
	app, err := c.CreateApp(ctx, "hanzo", "iam", "iam", "ghcr.io/hanzoai/iam", "v1.2.3", 1)
	if err != nil {
		t.Fatal(err)
	}
	d := testcluster.OperatorDeployment(app)
	d.Spec.Template.Spec.NodeName = testcluster.LogNodeName
	if _, err := c.AdminClient().AppsV1().Deployments("hanzo").Create(ctx, d, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	f := startFleet(t, c.AdminConfig(), kube.FleetOptions{})
	waitBoard(t, f, 90*time.Second, "iam ready", func(s *store.Snapshot) bool {
		for _, r := range s.Rows() {
			if r.Key() == key("hanzo", "iam") {
				return r.Workload.Found && r.Workload.Ready == 1
			}
		}
		return false
	})

	const keep = 50
	dark := true
	drv := newUIDriver(t, boardOf(f, nil, func(o *ui.Options) {
		o.Now, o.DarkBackground, o.LogLines, o.InitialQuery = time.Now, &dark, keep, "iam"
	}), 140, 30)
	drv.waitFor("the row", func(v string) bool { return strings.Contains(v, "1/1 shown") })
	drv.press("l")
	drv.waitFor("the log streams", func(v string) bool {
		return strings.Contains(v, "line two") && strings.Contains(v, "following") && strings.Contains(v, `evil \x1b]0;pwned\x07 end`)
	})
	if open := logRequests(t, c, "ResponseStarted") - logRequests(t, c, "ResponseComplete"); open != 1 {
		t.Errorf("%d pods/log requests open while following, want 1", open)
	}

	write(t, current, os.O_APPEND, criLine("appended later"))
	drv.waitFor("the appended line", func(v string) bool { return strings.Contains(v, "appended later") })

	// A fast writer: far more lines than the view keeps.
	var fast []string
	for i := range 2000 {
		fast = append(fast, criLine(fmt.Sprintf("fast %04d", i)))
	}
	write(t, current, os.O_APPEND, fast...)
	drv.waitFor("the fast lines, bounded", func(v string) bool {
		return strings.Contains(v, "fast 1999") && strings.Contains(v, fmt.Sprintf("older lines dropped (keeps %d)", keep))
	})

	drv.press("p")
	drv.waitFor("the previous instance", func(v string) bool {
		return strings.Contains(v, "previous instance") && strings.Contains(v, "panic: nil map") && !strings.Contains(v, "fast 1999")
	})
	drv.press("p")
	drv.waitFor("following again", func(v string) bool { return strings.Contains(v, "fast 1999") && strings.Contains(v, "following") })

	drv.press("q")
	drv.waitFor("back on the board", func(v string) bool { return !strings.Contains(v, "following") })
	deadline := time.Now().Add(20 * time.Second)
	for logRequests(t, c, "ResponseComplete") < logRequests(t, c, "ResponseStarted") && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
	}
	started, complete := logRequests(t, c, "ResponseStarted"), logRequests(t, c, "ResponseComplete")
	if started < 3 || complete != started {
		t.Errorf("pods/log requests: %d started, %d complete after q; want every one (at least 3) complete", started, complete)
	}
	t.Logf("API calls of the log view (audit): %s", podCalls(t, c))

	// A pod that matches the selector but no controller of the App's is
	// neither listed nor read.
	stray := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "stray", Namespace: "hanzo", Labels: d.Spec.Selector.MatchLabels},
		Spec: corev1.PodSpec{NodeName: testcluster.LogNodeName, Containers: []corev1.Container{{Name: "iam", Image: "ghcr.io/hanzoai/iam:v1.2.3"}}}}
	if _, err := c.AdminClient().CoreV1().Pods("hanzo").Create(ctx, stray, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if pods, err := f.LogPods(ctx, key("hanzo", "iam")); err != nil || len(pods) != 1 || pods[0].Name == "stray" {
		t.Errorf("LogPods with a stray pod: %+v, %v", pods, err)
	}
	if _, err := f.OpenLog(ctx, key("hanzo", "iam"), model.LogRequest{Pod: "stray", Container: "iam", Tail: -1, MaxLines: 10}); err == nil || !strings.Contains(err.Error(), "not one of hanzo/iam's pods") {
		t.Errorf("OpenLog of a stray pod: %v", err)
	}
}

// podCalls summarises the audit log's requests on pods in namespace hanzo
// (verb and subresource, at their last stage) made by the board's identity.
func podCalls(t *testing.T, c *testcluster.Cluster) string {
	t.Helper()
	evs, err := c.AuditEvents()
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, e := range evs {
		if e.Stage == "ResponseComplete" && e.ObjectRef != nil && e.ObjectRef.Resource == "pods" && e.ObjectRef.Namespace == "hanzo" &&
			!strings.Contains(e.UserAgent, "kube-controller-manager") && !strings.Contains(e.UserAgent, "kwok") && !strings.Contains(e.UserAgent, "scheduler") {
			n[e.Verb+" pods"+map[bool]string{true: "/" + e.ObjectRef.Subresource}[e.ObjectRef.Subresource != ""]]++
		}
	}
	return fmt.Sprint(n)
}

func criLine(text string) string {
	return time.Now().UTC().Format(time.RFC3339Nano) + " stdout F " + text + "\n"
}

func write(t *testing.T, path string, flag int, lines ...string) {
	t.Helper()
	f, err := os.OpenFile(path, flag|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(strings.Join(lines, "")); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// logRequests counts the pods/log requests of namespace hanzo the API
// server's audit log has at stage.
func logRequests(t *testing.T, c *testcluster.Cluster, stage string) int {
	t.Helper()
	evs, err := c.AuditEvents()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range evs {
		if e.Stage == stage && e.ObjectRef != nil && e.ObjectRef.Resource == "pods" && e.ObjectRef.Subresource == "log" && e.ObjectRef.Namespace == "hanzo" {
			n++
		}
	}
	return n
}

// uiDriver runs the board's model as a Program does (Cmds in goroutines,
// their messages fed back) without a terminal, so the frame can be read
// whole; spinner ticks are dropped.
type uiDriver struct {
	t    *testing.T
	m    tea.Model
	msgs chan tea.Msg
}

func newUIDriver(t *testing.T, m tea.Model, w, h int) *uiDriver {
	d := &uiDriver{t: t, m: m, msgs: make(chan tea.Msg, 256)}
	d.run(m.Init())
	d.send(tea.WindowSizeMsg{Width: w, Height: h})
	return d
}

func (d *uiDriver) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		switch msg := cmd().(type) {
		case nil, spinner.TickMsg:
		case tea.BatchMsg:
			for _, c := range msg {
				d.run(c)
			}
		default:
			d.msgs <- msg
		}
	}()
}

func (d *uiDriver) send(msg tea.Msg) {
	var cmd tea.Cmd
	d.m, cmd = d.m.Update(msg)
	d.run(cmd)
}

func (d *uiDriver) press(k string) {
	r := []rune(k)
	d.send(tea.KeyPressMsg{Code: r[0], Text: k})
}

// waitFor applies messages until the frame (ANSI stripped) satisfies ok.
func (d *uiDriver) waitFor(what string, ok func(string) bool) {
	d.t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		v := ansi.Strip(d.m.View().Content)
		if ok(v) {
			return
		}
		select {
		case msg := <-d.msgs:
			d.send(msg)
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			d.t.Fatalf("%s: not shown within 30s; the frame:\n%s", what, v)
		}
	}
}
