package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hanzoai/driftboard/internal/termtext"
)

// FlagError is a usage mistake (a bad flag, argument or combination): Run
// prints it with a pointer to the command's help and exits 2. The shape is
// gh's cmdutil.FlagError; every other error also exits 2, without the hint.
type FlagError struct {
	err     error
	suggest []string // commands close to a mistyped one (cobra's "Did you mean this?")
}

func (e *FlagError) Error() string { return e.err.Error() }
func (e *FlagError) Unwrap() error { return e.err }

// usageErr is a FlagError with a sentence saying what to do.
func usageErr(format string, args ...any) error {
	return &FlagError{err: fmt.Errorf(format, args...)}
}

// errDriftFound is list's silent exit 1: the table already said it.
var errDriftFound = errors.New("drift at or above --fail-on")

// usageErrors makes cobra's own argument and flag errors FlagErrors, for c
// and every command below it, so the help hint never depends on cobra's words.
func usageErrors(c *cobra.Command) {
	c.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &FlagError{err: err} })
	c.SuggestionsMinimumDistance = 2
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				fe := &FlagError{err: err}
				if cmd.HasAvailableSubCommands() && len(args) > 0 {
					fe.suggest = cmd.SuggestionsFor(args[0])
				}
				return fe
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		usageErrors(sub)
	}
}

// exitCode prints err as the user meets it, with kubectl's "error: "
// prefix, and returns the exit code.
func exitCode(cmd *cobra.Command, err error, interrupted bool, printf func(string, ...any)) int {
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, errDriftFound):
		return ExitDrift
	case interrupted:
		printf("error: interrupted\n")
		return ExitError
	}
	printf("error: %s\n", errorLines(err))
	if fe := (*FlagError)(nil); errors.As(err, &fe) {
		if len(fe.suggest) > 0 {
			printf("\nDid you mean this?\n")
			for _, s := range fe.suggest {
				printf("\t%s\n", s)
			}
			printf("\n")
		}
		path := "driftboard"
		if cmd != nil {
			path = cmd.CommandPath()
		}
		printf("Run '%s --help' for usage.\n", path)
	}
	return ExitError
}

// errorLines is err as stderr shows it: one line for each error that
// errors.Join put together, and every value quoted within on its line (a
// server's message or a tenant's field never forges a line of ours).
func errorLines(err error) string {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var errs []error
		var texts []string
		for _, e := range j.Unwrap() {
			if e != nil {
				errs, texts = append(errs, e), append(texts, e.Error())
			}
		}
		if len(errs) > 1 && strings.Join(texts, "\n") == err.Error() {
			for i, e := range errs {
				texts[i] = errorLines(e)
			}
			return strings.Join(texts, "\n")
		}
	}
	return termtext.Sanitize(err.Error())
}
