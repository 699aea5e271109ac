package cli

import "fmt"

// dryRun is kubectl's --dry-run: none; client, every check run and nothing
// sent; server, the checks and then the patch sent as a server-side dry run
// (the API server validates and authorizes it, admission included, and
// stores nothing). --dry-run alone is client, as kubectl's; the old
// boolean spellings still parse.
type dryRun string

const (
	dryRunNone   dryRun = "none"
	dryRunClient dryRun = "client"
	dryRunServer dryRun = "server"
)

func (d *dryRun) String() string { return string(*d) }
func (d *dryRun) Type() string   { return "string" }

func (d *dryRun) Set(s string) error {
	switch s {
	case "none", "false":
		*d = dryRunNone
	case "client", "true":
		*d = dryRunClient
	case "server":
		*d = dryRunServer
	default:
		return fmt.Errorf("must be none, client or server, not %q", s)
	}
	return nil
}

// on says whether nothing may change.
func (d dryRun) on() bool { return d == dryRunClient || d == dryRunServer }
