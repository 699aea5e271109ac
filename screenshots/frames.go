// Package screenshots renders the board's screens from the real ui package
// on the demo fleet, deterministically (fixed seed, frozen clock, a settled
// snapshot, the release reader healthy), for the README. `make screenshots`
// writes them with screenshots/gen; a test fails when the committed frames
// are out of date.
package screenshots

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/hanzoai/driftboard/internal/cli"
	"github.com/hanzoai/driftboard/internal/config"
	"github.com/hanzoai/driftboard/internal/demo"
	"github.com/hanzoai/driftboard/model/store"
	"github.com/hanzoai/driftboard/ui"
)

// Clock is the frozen time of every screenshot.
var Clock = time.Date(2026, 11, 30, 9, 41, 0, 0, time.UTC)

// Seed is the demo fleet's seed for the screenshots.
const Seed = 1

// Frame is one rendered screen.
type Frame struct {
	Name          string // file name without extension
	Title         string // what it shows, for the README
	Width, Height int
	ANSI          string // the board's View() content, colours included
}

// scene is one screen: a size, the keys that lead to it and text that shows
// it is complete (the answers to what the keys asked for are in).
type scene struct {
	name, title   string
	width, height int
	keys          func(d *driver)
	done          string
}

var scenes = []scene{
	{"board-wide", "The board, 160 columns", 160, 40, nil, "shown"},
	{"board-narrow", "The board, 80 columns: columns drop by priority", 80, 30, nil, "shown"},
	{"filter", "Filtering with the query language", 160, 40, func(d *driver) {
		d.press("/")
		d.typeText("sev:red env:main")
	}, "sev:red env:main"},
	{"detail", "The detail of one app", 160, 40, func(d *driver) {
		d.press("/")
		d.typeText("flag:floating")
		d.press("enter", "enter")
	}, "Tags"},
	{"detail-events", "The detail's Events (the end of the detail): a stuck rollout's failed pulls, newest first, with counts", 160, 40, func(d *driver) {
		d.press("/")
		d.typeText("search rollout:stuck")
		d.press("enter", "enter", "G")
	}, "Back-off pulling image"},
	{"logs", "The log view (l): the crash-looping pod's container, picked by default; p for the previous instance", 160, 40, func(d *driver) {
		d.press("/")
		d.typeText("oracle health:red")
		d.press("enter", "l")
		d.waitFor(func(text string) bool { return strings.Contains(text, "choose") || strings.Contains(text, "FATAL") }, 20*time.Second)
		if strings.Contains(ansi.Strip(d.frame()), "choose") {
			d.press("enter")
		}
	}, "FATAL"},
	{"confirm", "Confirming a production restart", 160, 40, func(d *driver) {
		d.press("/")
		d.typeText("env:main flag:un-rolled")
		d.press("enter", "r")
	}, "Rolling restart of"},
	{"marks", "Marking rows: space marks one, * every row shown", 160, 40, func(d *driver) {
		d.press("/")
		d.typeText("env:test")
		d.press("enter", "space", "down", "down", "space", "down", "space")
	}, "3 marked"},
	{"set-restart", "Restarting the marked set: one dialog with the counts, confirmed by typing the count", 160, 40, func(d *driver) {
		d.press("/")
		d.typeText("env:test")
		d.press("enter", "*", "R")
	}, "type 16:"},
	{"git", "Git sync state from Hanzo CD: rows git already declares differently (git:out), and the detail's next step", 160, 40, func(d *driver) {
		d.press("/")
		d.typeText("git:out")
		d.press("enter", "enter")
	}, "Git (CD)"},
	{"promote", "Promoting a release through git (p): the plan, the one-line diff, who it acts as; default No", 160, 40, func(d *driver) {
		d.press("/")
		d.typeText("env:test sev:yellow")
		d.press("enter", "p")
	}, "Open this pull request?"},
	{"help", "Help", 160, 40, func(d *driver) { d.press("?") }, "keys"},
	{"login", "Logging in again from inside the board", 160, 40, func(d *driver) { d.press("L") }, "WDJB-MJHT"},
}

// Render starts the demo fleet, waits until it is settled and renders every
// scene on a fresh board.
func Render(ctx context.Context) ([]Frame, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	d, err := demo.Start(ctx, demo.Options{Seed: Seed, Speed: 1, Now: func() time.Time { return Clock }, HealthyReleases: true})
	if err != nil {
		return nil, err
	}
	defer d.Stop()
	snap, err := settledSnapshot(ctx, d)
	if err != nil {
		return nil, err
	}
	settled := make(chan struct{})
	close(settled)
	board := cli.NewDemoBoard(d, config.Effective{}) // as `driftboard demo` assembles it
	src := frozenFleet{Fleet: board.Fleet, snap: snap, ch: make(chan struct{}), settled: settled}
	id := fixedIdentity{state: ui.IdentityState{Principal: d.Principal(), Expiry: d.Expiry(), Source: d.Source()}}
	dark := true
	opts := ui.Options{
		Now:            func() time.Time { return Clock },
		DarkBackground: &dark,
		SavedFilters:   map[string]string{"prod-red": "sev:red env:main", "rolling": "rollout:progressing"},
	}
	frames := make([]Frame, 0, len(scenes))
	for _, sc := range scenes {
		drv := newDriver(ui.New(src, id, opts), sc.width, sc.height)
		drv.waitFor(func(text string) bool { return strings.Contains(text, "shown") }, 20*time.Second)
		if sc.keys != nil {
			sc.keys(drv)
		}
		drv.waitFor(func(text string) bool { return strings.Contains(text, sc.done) }, 20*time.Second)
		drv.settle(300 * time.Millisecond)
		frames = append(frames, Frame{Name: sc.name, Title: sc.title, Width: sc.width, Height: sc.height, ANSI: drv.frame()})
	}
	return frames, nil
}

// settledSnapshot waits for the fleet to sync and then for the simulator to
// go quiet (with the clock frozen nothing more happens), and snapshots it.
func settledSnapshot(ctx context.Context, d *demo.Demo) (*store.Snapshot, error) {
	fl := d.Fleet()
	if err := fl.WaitSynced(ctx); err != nil {
		return nil, fmt.Errorf("demo fleet did not sync: %w", err)
	}
	deadline := time.After(30 * time.Second)
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-deadline:
			return nil, errors.New("the demo fleet did not settle within 30s")
		case <-fl.Changed():
			continue
		case <-time.After(1500 * time.Millisecond):
		}
		return fl.Snapshot(), nil
	}
}

// frozenFleet is the demo's fleet showing one snapshot: it never signals a
// change, and has settled; every other capability is the fleet's.
type frozenFleet struct {
	ui.Fleet
	snap        *store.Snapshot
	ch, settled chan struct{}
}

func (s frozenFleet) Changed() <-chan struct{}  { return s.ch }
func (s frozenFleet) Snapshot() *store.Snapshot { return s.snap }
func (s frozenFleet) Settled() <-chan struct{}  { return s.settled }

// fixedIdentity is the demo user; its login shows a device code and then
// waits, so the dialog can be captured.
type fixedIdentity struct{ state ui.IdentityState }

func (i fixedIdentity) Current() ui.IdentityState { return i.state }

func (i fixedIdentity) Login(ctx context.Context, prompt func(ui.LoginPrompt)) error {
	prompt(ui.LoginPrompt{
		UserCode:                "WDJB-MJHT",
		VerificationURI:         "https://hanzo.id/device",
		VerificationURIComplete: "https://hanzo.id/device?user_code=WDJB-MJHT",
		ExpiresAt:               Clock.Add(15 * time.Minute),
	})
	<-ctx.Done()
	return ctx.Err()
}
