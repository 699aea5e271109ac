package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/hanzoai/driftboard/internal/changestream"
	"github.com/hanzoai/driftboard/model/query"
)

type watchOptions struct {
	output      string
	query       string
	changesOnly bool
	timeout     time.Duration
}

func (a *app) watchCommand() *cobra.Command {
	var o watchOptions
	cmd := &cobra.Command{
		Use:   "watch",
		Short: "Stream drift changes, one line per event (for alerting)",
		Long: `Watch every App and print, first, the current rows (only a summary with
--changes-only), then one event per observed change: a row's verdict (severity,
flags, declared/running/latest tag, health, rollout state), a row added or
deleted, a cluster's connection state, a row's promotion in flight (its step,
as list and get show it, read from GitHub every 30s; none; or unknown, and why:
no GitHub token, the pull requests could not be listed). Each event has the time, the cluster,
namespace and app, and the before and after. It reconnects by itself (the
cluster events say so) and reports only changes it observed: a resync or a
reconnect that finds the same verdict prints nothing.

-o jsonl prints each event as one line of JSON; -o json prints the same
objects indented, one document after another (as kubectl's get -w -o json), for
a reader that takes a stream of documents (jq, json.Decoder).

It runs until interrupted. Exit code 2 when no cluster could be read at start
or the output cannot be written.`,
		Example: `  driftboard watch
  driftboard watch -o jsonl --changes-only -q 'env:main'
  driftboard watch -o jsonl --changes-only |
    jq -c --unbuffered 'select(.event == "changed" and .after.severity == "red" and .before.severity != "red")' |
    while read -r ev; do curl -fsS -H 'Content-Type: application/json' -d "$ev" "$WEBHOOK_URL"; done`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.runWatch(cmd.Context(), cmd.OutOrStdout(), o)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.output, "output", "o", "text", "output format: text|jsonl|json (json: the same objects as jsonl, one indented document each, as kubectl -w -o json)")
	f.StringVarP(&o.query, "query", "q", "", "report only rows matching this query (before or after a change)")
	f.BoolVar(&o.changesOnly, "changes-only", false, "start with a summary instead of every current row")
	f.DurationVar(&o.timeout, "timeout", 60*time.Second, "give up waiting for the first sync after this long")
	completeFixed(cmd, "output", "text", "jsonl", "json")
	return cmd
}

func (a *app) runWatch(ctx context.Context, out io.Writer, o watchOptions) error {
	write := changestream.WriteText
	switch o.output {
	case "text":
	case "jsonl":
		write = changestream.WriteJSON
	case "json": // kubectl's -w -o json: the same objects, one indented document each
		write = changestream.WriteJSONIndented
	default:
		return usageErr("-o must be text, jsonl or json, not %q", o.output)
	}
	q, err := query.Parse(o.query)
	if err != nil {
		return usageErr("-q: %v", err)
	}
	fl, err := a.openFleet(ctx, fleetRequest{noRegistry: true}) // digests are detail-only
	if err != nil {
		return err
	}
	syncCtx, cancel := context.WithTimeout(ctx, o.timeout)
	first, syncErr := a.waitSnapshot(syncCtx, fl)
	cancel()
	if first == nil {
		return syncErr
	}
	if syncErr != nil { // some clusters failed; the stream says when they come up
		fmt.Fprintf(a.streams.Err, "Warning: %s\n", errorLines(syncErr))
	}
	err = changestream.Stream(ctx, fl, first, changestream.Options{Query: q, ChangesOnly: o.changesOnly, Now: a.now,
		Promotions: a.watchPromotions(fl), PromotionPoll: a.promotionPoll},
		func(ev changestream.Event) error { return write(out, ev) })
	if err != nil {
		return fmt.Errorf("write event: %w", err)
	}
	return nil
}
