// Command driftboard is a terminal board of version drift across a Hanzo
// fleet. Wiring only: everything lives in package cli.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/hanzoai/driftboard/internal/cli"
)

func main() {
	// These signals end the program through its context, so the board gives
	// the terminal back (raw mode, alternate screen, mouse) on its way out;
	// SIGHUP too: `kill -HUP` must not leave a live terminal raw.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	code := cli.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
