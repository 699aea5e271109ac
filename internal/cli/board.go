package cli

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"github.com/hanzoai/driftboard/internal/config"
	"github.com/hanzoai/driftboard/internal/restart"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/kube/execcred"
	"github.com/hanzoai/driftboard/ui"
)

// runBoard is `driftboard` without a command: the live board.
func (a *app) runBoard(cmd *cobra.Command, _ []string) error {
	if err := a.needTerminal(); err != nil {
		return err
	}
	ctx := cmd.Context()
	eff, err := a.effective()
	if err != nil {
		return err
	}
	_, id, _, err := a.iamActor(ctx)
	if err != nil {
		return err
	}
	s, err := a.session()
	if err != nil {
		return err
	}
	// Credential plugins run here, with the terminal, before the board
	// takes it; later runs never write onto its frame.
	a.plugins = execcred.New(a.streams.In, a.streams.Err, a.streams.InTerminal)
	fl, err := a.openLoginFleets(ctx, eff, id, s)
	a.plugins.Detach()
	if err != nil {
		return err
	}
	go id.run(ctx)
	go returnSyncGarbage(ctx, fl.current())
	err = a.showBoard(ctx, composeBoard(fl, eff, a.opts.noColor, a.boardForge(eff)), id)
	writeHeapProfile(a.streams.Getenv, a.streams.Err) // while the fleet is still held
	runtime.KeepAlive(fl)
	return err
}

// showBoard runs the board full-screen on the terminal until the user quits.
func (a *app) showBoard(ctx context.Context, b Board, id ui.Identity) error {
	b.Options.OpenURL = a.pageOpener()
	b.Options.ExitReport = a.streams.Err
	if err := ui.Run(ctx, b.Fleet, id, b.Options); err != nil {
		return fmt.Errorf("board: %w", err)
	}
	return nil
}

// returnSyncGarbage gives the memory the first sync used (whole list
// responses, decode buffers, building every row) back to the system once
// the caches hold the fleet and the rows are built, and sets the steady
// state's GC target and cores: the board then idles at its working size,
// not at the sync's peak. It waits a moment first: until the UI has drawn
// the synced rows it still holds those it showed while the lists streamed
// (at 10,000 Apps, returning at once found 65 MB live instead of 51, and
// the RSS after churn stayed ~14 MiB higher).
func returnSyncGarbage(ctx context.Context, fl *kube.Fleet) {
	_ = fl.WaitSynced(ctx) // a cluster that failed has settled too
	if ctx.Err() == nil {
		fl.Snapshot() // the rows the UI would build next, built now, so their garbage (the provisional rows' too) goes
		useSteadyGC()
		useSteadyProcs()
		select {
		case <-ctx.Done():
			return
		case <-time.After(syncGarbageDelay):
		}
		debug.FreeOSMemory()
	}
}

// syncGarbageDelay is how long after the sync the garbage is returned.
const syncGarbageDelay = 2 * time.Second

// needTerminal refuses to draw the board into a pipe or a file.
func (a *app) needTerminal() error {
	if a.streams.InTerminal && a.streams.OutTerminal {
		return nil
	}
	return usageErr("the board needs a terminal (stdin and stdout); for scripts and CI use 'driftboard list' (e.g. driftboard list -o json)")
}

// boardOptions turn the effective configuration into the board's options.
func boardOptions(eff config.Effective, noColor bool) ui.Options {
	opts := ui.Options{
		ReadOnly:     eff.ReadOnly,
		NoColor:      noColor,
		Contexts:     eff.Contexts,
		SavedFilters: eff.SavedFilters,
		Keys:         eff.Keys,

		SetRestartLimit: eff.Restart.MaxParallelOrDefault(),
		LogLines:        eff.Logs.MaxLinesOrDefault(),
	}
	switch eff.Theme {
	case "dark", "light":
		dark := eff.Theme == "dark"
		opts.DarkBackground = &dark
	}
	return opts
}

// restartPolicy is the user's switches as the restart use case reads them:
// read-only everywhere, or per context.
func restartPolicy(eff config.Effective) restart.Policy {
	p := restart.Policy{ReadOnly: eff.ReadOnly, ReadOnlyContexts: map[string]bool{}}
	for name, c := range eff.PerContext {
		if c.ReadOnly {
			p.ReadOnlyContexts[name] = true
		}
	}
	return p
}
