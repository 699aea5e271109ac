package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/hanzoai/driftboard/internal/cli"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
	"github.com/hanzoai/driftboard/ui"
)

var t0 = time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)

// storeSource is a ui.Source over a store.Store with the fleet's
// capacity-1 coalescing signal.
type storeSource struct {
	*store.Store
	ch chan struct{}
}

func (s *storeSource) Changed() <-chan struct{} { return s.ch }

// Settled is closed: a store has no first sync to wait for.
func (s *storeSource) Settled() <-chan struct{} { return settled }

var settled = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (s *storeSource) put(rows ...model.AppView) {
	for _, r := range rows {
		s.Upsert(r)
	}
	select {
	case s.ch <- struct{}{}:
	default:
	}
}

func row(i int, tag string) model.AppView {
	one := int32(1)
	name := fmt.Sprintf("svc-%04d", i)
	app := model.AppObject{Key: model.Key{Cluster: "prod", Namespace: "hanzo", Name: name}, Kind: "App",
		Role: "service", ImageRepository: "ghcr.io/hanzoai/" + name, ImageTag: tag, Replicas: &one}
	wl := &model.Workload{Kind: model.KindDeployment, Name: name, Replicas: &one, ReadyReplicas: 1, UpdatedReplicas: 1,
		AvailableReplicas: 1, Containers: []model.Container{{Name: name, Image: "ghcr.io/hanzoai/" + name + ":v1.0.0"}}}
	return model.Build(app, wl, model.Release{State: model.ReleaseOff}, t0)
}

func newBoard(t *testing.T, rows int, w, h int) (*teatest.TestModel, *storeSource) {
	t.Helper()
	src := &storeSource{Store: store.New(), ch: make(chan struct{}, 1)}
	for i := range rows {
		src.Upsert(row(i, "v1.0.0"))
	}
	dark := true
	m := ui.New(rowsOnlyFleet(src), nil, ui.Options{Now: func() time.Time { return t0 }, DarkBackground: &dark})
	return teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h)), src
}

func finalView(t *testing.T, tm *teatest.TestModel) string {
	t.Helper()
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	return ansi.Strip(tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).View().Content)
}

// A storm of resizes through the real bubbletea program (absurd sizes
// included) while rows change: no panic, and the board draws right at the
// size it ends on.
func TestResizeStormWhileRowsChange(t *testing.T) {
	t.Parallel()
	tm, src := newBoard(t, 2000, 120, 40)
	rng := rand.New(rand.NewPCG(1, 2))
	odd := [][2]int{{0, 0}, {1, 1}, {1, 500}, {500, 1}, {2000, 3}, {59, 9}, {60, 10}, {3, 2000}}
	for i := range 400 {
		w, h := rng.IntN(300), rng.IntN(120)
		if i%10 == 0 {
			w, h = odd[(i/10)%len(odd)][0], odd[(i/10)%len(odd)][1]
		}
		tm.Send(tea.WindowSizeMsg{Width: w, Height: h})
		if i%7 == 0 {
			src.put(row(rng.IntN(2000), fmt.Sprintf("v2.%d.0", i)))
		}
	}
	tm.Send(tea.WindowSizeMsg{Width: 100, Height: 30})
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("svc-")) },
		teatest.WithDuration(10*time.Second))
	view := finalView(t, tm)
	if strings.Contains(view, "too small") || !strings.Contains(view, "svc-") {
		t.Fatalf("after the storm, at 100x30 the board shows:\n%s", view)
	}
	lines := strings.Split(view, "\n")
	if len(lines) > 30 {
		t.Errorf("%d lines drawn in a 30-line terminal", len(lines))
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > 100 {
			t.Errorf("line %d is %d wide in a 100-column terminal: %q", i, w, l)
		}
	}
}

// A 1×1 (and 3×2) terminal: no panic, the board says it is too small. A
// 0×0 size means "not known yet" to the board, which then draws nothing.
func TestTinyTerminal(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{1, 1}, {3, 2}, {0, 0}} {
		tm, src := newBoard(t, 50, size[0], size[1])
		src.put(row(1, "v9.0.0"))
		tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
		tm.Send(tea.KeyPressMsg{Code: '/', Text: "/"})
		tm.Send(tea.KeyPressMsg{Code: 'x', Text: "x"})
		view := finalView(t, tm)
		if size[0] == 0 {
			if view != "" {
				t.Errorf("at 0x0 (size unknown) the view is %q, want nothing", view)
			}
			continue
		}
		if want := fmt.Sprintf("terminal too small (%dx%d)", size[0], size[1]); !strings.Contains(view, want) {
			t.Errorf("at %dx%d the view is %q, want it to contain %q", size[0], size[1], view, want)
		}
	}
}

// No terminal at all: the board refuses with a clear message on stderr,
// exit code 2, and writes nothing (no escape sequences) to stdout.
func TestNoTerminal(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("XDG_CACHE_HOME", home)
	t.Setenv("XDG_STATE_HOME", home)
	for _, args := range [][]string{{}, {"demo"}} {
		stdinR, stdinW, _ := os.Pipe()
		stdoutR, stdoutW, _ := os.Pipe()
		var stderr bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		code := cli.Main(ctx, args, stdinR, stdoutW, &stderr)
		cancel()
		stdoutW.Close()
		out, _ := io.ReadAll(stdoutR)
		stdinW.Close()
		stdinR.Close()
		stdoutR.Close()
		if code != cli.ExitError || !strings.Contains(stderr.String(), "needs a terminal") || len(out) != 0 {
			t.Errorf("driftboard %v without a terminal: exit %d, stderr %q, stdout %q", args, code, stderr.String(), out)
		}
	}
}
