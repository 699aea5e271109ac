// Package cli holds driftboard's commands (cobra): the board, the demo, the
// one-shot list/get/restart for scripts, login/logout/whoami, config and
// completion. It is the only package that wires ui, kube, auth, release and
// demo together.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// Exit codes, as scripts and CI read them.
const (
	ExitOK    = 0 // done; no drift at or above --fail-on
	ExitDrift = 1 // list: drift at or above --fail-on
	ExitError = 2 // an error: bad usage, cluster unreachable, CRD missing, not allowed
)

// Streams are the process's standard streams and what is known about them.
type Streams struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
	// InTerminal and OutTerminal say whether a person is at the keyboard
	// and watching the screen; Main detects them, tests set them.
	InTerminal, OutTerminal bool
	// Getenv reads the environment (os.Getenv in production).
	Getenv func(string) string
}

// Main runs driftboard with args (without the program name) and returns the
// process exit code.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return Run(ctx, args, Streams{
		In: stdin, Out: stdout, Err: stderr,
		InTerminal:  isTerminal(stdin),
		OutTerminal: isTerminal(stdout),
		Getenv:      os.Getenv,
	})
}

// Run is Main with the streams' nature given explicitly.
func Run(ctx context.Context, args []string, s Streams) int {
	if s.Getenv == nil {
		s.Getenv = func(string) string { return "" }
	}
	app := newApp(s)
	defer app.close()
	root := app.rootCommand()
	root.SetArgs(args)
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.Err)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return ExitOK
	}
	var ex *exitError
	if errors.As(err, &ex) {
		if ex.err != nil {
			fmt.Fprintf(s.Err, "driftboard: %v\n", ex.err)
		}
		return ex.code
	}
	if ctx.Err() != nil {
		fmt.Fprintln(s.Err, "driftboard: interrupted")
		return ExitError
	}
	msg := err.Error()
	fmt.Fprintf(s.Err, "driftboard: %s\n", msg)
	if isUsageError(msg) {
		fmt.Fprintln(s.Err, "Run 'driftboard --help' for usage.")
	}
	return ExitError
}

// exitError carries an exit code; err == nil means the message was already
// printed (e.g. list found drift and printed the table).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// driftFound is the silent exit 1 of list.
func driftFound() error { return &exitError{code: ExitDrift} }

func isUsageError(msg string) bool {
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand", "flag needs", "invalid argument", "accepts ", "requires "} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
