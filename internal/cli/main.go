// Package cli holds driftboard's commands (cobra): the board, the demo, the
// one-shot list/get/restart for scripts, login/logout/whoami, config and
// completion. It is the only package that wires ui, kube, auth, release and
// demo together.
package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"golang.org/x/term"

	"github.com/hanzoai/driftboard/auth"
	"github.com/hanzoai/driftboard/internal/termtext"
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
	// Program is how the binary was invoked (os.Args[0]): as kubectl's
	// plugin, kubectl-driftboard, help says 'kubectl driftboard'.
	Program string
}

// Main runs driftboard with args (without the program name) and returns the
// process exit code.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return Run(ctx, args, Streams{
		In: stdin, Out: stdout, Err: stderr,
		InTerminal:  isTerminal(stdin),
		OutTerminal: isTerminal(stdout),
		Getenv:      withholdCredentials(),
		Program:     os.Args[0],
	})
}

// credentialVars hold tokens driftboard reads from its environment.
var credentialVars = []string{auth.EnvToken, "GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN"}

// withholdCredentials moves the credentialVars out of the process
// environment into the returned getenv, so no child process inherits them:
// the browser opener, gh (asked for its keyring token), a kubeconfig exec
// plugin. driftboard itself reads them through the getenv as before.
func withholdCredentials() func(string) string {
	kept := map[string]string{}
	for _, k := range credentialVars {
		if v, ok := os.LookupEnv(k); ok {
			kept[k] = v
			_ = os.Unsetenv(k)
		}
	}
	return func(k string) string {
		if v, ok := kept[k]; ok {
			return v
		}
		return os.Getenv(k)
	}
}

// Run is Main with the streams' nature given explicitly.
func Run(ctx context.Context, args []string, s Streams) int {
	if s.Getenv == nil {
		s.Getenv = func(string) string { return "" }
	}
	// Everything on stderr (errors, warnings, notices, -v logs, prompts) is
	// for a person: no control character from outside reaches it raw.
	s.Err = termtext.NewWriter(s.Err)
	defer startProfiles(s.Getenv, s.Err)()
	app := newApp(s)
	defer app.close()
	root := app.rootCommand()
	root.SetArgs(args)
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.Err)
	cmd, err := root.ExecuteContextC(ctx)
	return exitCode(cmd, err, err != nil && ctx.Err() != nil, func(format string, args ...any) {
		fmt.Fprintf(s.Err, format, args...)
	})
}

func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
