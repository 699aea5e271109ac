package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/hanzoai/driftboard/kube/podlogs"
)

func (a *app) logsCommand() *cobra.Command {
	var f targetFlags
	var opts podlogs.Options
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "logs APP | NAMESPACE/APP",
		Short: "Print the logs of an App's pods (every pod of its workload; -f to follow)",
		Long: `Print the logs of the pods of an App's workload, each line prefixed with its pod
when there are several. Name the App as for get (--context for its context). Reading logs is not an action:
read-only mode allows it. Control characters in the logs are shown escaped.`,
		Example: `  driftboard logs hanzo/iam --tail 100
  driftboard logs iam --env test -f
  driftboard logs hanzo/iam --previous -c iam`,
		Args:              oneApp,
		ValidArgsFunction: a.completeAppNames,
		RunE: func(cmd *cobra.Command, args []string) error {
			find, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			fl, row, err := a.readApp(find, args[0], f)
			if err != nil {
				return err
			}
			ctx := cmd.Context() // a followed stream runs until interrupted
			if !opts.Follow {
				ctx = find
			}
			if err := fl.StreamLogs(ctx, row.Key(), opts, textOut(cmd.OutOrStdout())); err != nil {
				return fmt.Errorf("logs of %s/%s: %w", row.Namespace, row.App, err)
			}
			return nil
		},
	}
	f.register(cmd)
	fs := cmd.Flags()
	fs.StringVarP(&opts.Container, "container", "c", "", "the container (default: the one running the App's image, else the first)")
	fs.BoolVarP(&opts.Previous, "previous", "p", false, "the previous (crashed) instance of the container")
	fs.BoolVarP(&opts.Follow, "follow", "f", false, "keep streaming new lines until interrupted")
	fs.Int64Var(&opts.Tail, "tail", -1, "only the last N lines of each pod (-1: all)")
	fs.DurationVar(&timeout, "timeout", 60*time.Second, "give up finding the app (and, without -f, reading) after this long")
	return cmd
}
