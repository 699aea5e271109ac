package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hanzoai/driftboard/internal/config"
	"github.com/hanzoai/driftboard/internal/githubforge"
	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/model"
)

// promoteOptions follow restart's: complete, validate, run; built per call.
type promoteOptions struct {
	flags   targetFlags
	to      string
	merge   bool
	sync    bool
	wait    bool
	dryRun  bool
	yes     bool
	output  string
	timeout time.Duration
	query   string // -q: a set, one pull request

	target appTarget // set by complete
}

func (a *app) promoteCommand() *cobra.Command {
	var o promoteOptions
	cmd := &cobra.Command{
		Use:   "promote APP | NAMESPACE/APP --to TAG|latest",
		Short: "Promote a release: a pull request changing the App's declared tag in git, as you",
		Long: `Promote a release the board read to an App: the file that declares the App in git
is found (the CD Application that syncs its App CR: its repository, path and
revision; or the config's promote.files), its image tag changed on that one line
(comments, quoting and line endings kept), and a pull request opened as you
through the GitHub API, on the branch driftboard/<env>/<app>-<tag>. An open pull
request for the same change is reused. Nothing is ever pushed to the base branch
and no tag is ever patched in a cluster.

--dry-run prints the plan and the one-line diff and writes nothing. Without --yes
it asks: production (main) needs the App's name typed. --merge merges the pull
request once its checks passed (GitHub's refusal is said as it was given);
--sync asks CD to apply the merge commit, as your IAM identity, with a restart's
checks (a sync operation, or a refresh where the Application syncs by itself);
--wait follows the promotion until it is live or stops (closed, checks failed,
sync failed, rollout failed), one line per state.

With -q every App the query selects is promoted in one pull request, one commit
with every file; Apps that cannot be (another repository, no file, a templated
tag) are listed with the reason and left out. A set with a production App takes
typing 'promote N apps' (--yes: only when the query names env:main). With
--merge --sync each Application that syncs the set's files is asked once; --wait
follows every App until each is live or stops.`,
		Example: `  driftboard promote gateway --to latest --dry-run
  driftboard promote hanzo/gateway --to v1.9.0 --merge --sync --wait
  driftboard promote iam --env test --to latest -y -o jsonl --wait
  driftboard promote -q 'flag:stale env:test' --to latest --dry-run`,
		Args:              cobra.MaximumNArgs(1),
		ValidArgsFunction: a.completeAppNames,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.query != "" {
				return o.runSet(cmd.Context(), a, args, cmd.OutOrStdout())
			}
			if err := oneApp(cmd, args); err != nil {
				return usageErr("%v", err)
			}
			if err := o.complete(a, args); err != nil {
				return err
			}
			if err := o.validate(); err != nil {
				return err
			}
			return o.run(cmd.Context(), a, cmd.OutOrStdout())
		},
	}
	o.flags.register(cmd)
	f := cmd.Flags()
	f.StringVar(&o.to, "to", "", "the release: a tag the board read for the App's repository, or latest")
	f.BoolVar(&o.merge, "merge", false, "merge the pull request once its checks passed")
	f.BoolVar(&o.sync, "sync", false, "ask CD to apply the merge commit (needs --merge or a merged pull request)")
	f.BoolVar(&o.wait, "wait", false, "follow the promotion until it is live or stops; exit 2 if it stops or --timeout passes")
	f.BoolVar(&o.dryRun, "dry-run", false, "print the plan and the diff; write nothing")
	f.BoolVarP(&o.yes, "yes", "y", false, "do not ask for confirmation (production: only when the env is named)")
	f.StringVarP(&o.output, "output", "o", "text", "text, json (one object at the end) or jsonl (one object per state)")
	f.DurationVar(&o.timeout, "timeout", 30*time.Minute, "give up after this long")
	f.StringVarP(&o.query, "query", "q", "", "promote every App this query selects in one pull request (one commit with every file)")
	completeFixed(cmd, "output", "text", "json", "jsonl")
	return cmd
}

func (o *promoteOptions) complete(a *app, args []string) error {
	t, err := a.newTarget(args[0], o.flags)
	o.target = t
	return err
}

func (o *promoteOptions) validate() error {
	switch {
	case o.to == "":
		return usageErr("promote needs --to TAG or --to latest")
	case o.output != "text" && o.output != "json" && o.output != "jsonl":
		return usageErr("-o must be text, json or jsonl, not %q", o.output)
	case o.dryRun && (o.merge || o.sync):
		return usageErr("--dry-run writes nothing: it does not combine with --merge or --sync")
	}
	return nil
}

func (o *promoteOptions) run(ctx context.Context, a *app, out io.Writer) error {
	eff, err := a.effective()
	if err != nil {
		return err
	}
	if why := restartPolicy(eff).ReadOnlyRefusal(""); why != "" && !o.dryRun {
		return errors.New("refused: " + why)
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	var as *actor
	if o.sync && !o.dryRun {
		if as, err = (&restartOptions{}).actor(ctx, a); err != nil {
			return err
		}
	}
	fl, row, err := a.findApp(ctx, o.target, as)
	if err != nil {
		return err
	}
	if why := restartPolicy(eff).ReadOnlyRefusal(row.Cluster); why != "" && o.sync && !o.dryRun {
		return errors.New("refused: --sync: " + why) // said before anything is written
	}
	forge, repoOf, err := a.forge(eff)
	if err != nil {
		return err
	}
	d := promoteDeps{fleet: fl, row: row, forge: forge, repoOf: repoOf, override: fileOverride(eff, row), budgets: promoteBudgets(eff),
		reread: func() *model.AppView { return findRowByKey(fl.Snapshot().Rows(), row.Key()) }, changed: fl.Changed}
	who := as
	if who == nil { // the pull request names who asked: the IAM login, when there is one
		who, _, _, _ = a.iamActor(ctx)
	}
	if who != nil && who.principal != nil {
		if p := who.principal(); p != nil {
			d.asker = firstNonEmpty(p.Email, p.User)
		}
	}
	return o.promote(ctx, a, d, out)
}

// forge is the GitHub the promotion reads and writes through, as the
// user's own token on the configured host, and how an Application's
// repoURL is read on that host only.
func (a *app) forge(eff config.Effective) (promote.Forge, promote.RepoParser, error) {
	if a.forgeFor != nil {
		return a.forgeFor(eff)
	}
	api := eff.Releases.GitHubURL
	if api == config.DefaultGitHubURL {
		api = "" // github.com itself, not an Enterprise server
	}
	f, err := githubforge.New(githubforge.Config{APIURL: api, Getenv: a.streams.Getenv})
	if err != nil {
		return nil, nil, fmt.Errorf("releases.githubURL: %w", err)
	}
	return f, func(u string) (promote.Repo, error) { return githubforge.ParseRepoURL(u, f.Host()) }, nil
}

func fileOverride(eff config.Effective, row *model.AppView) *promote.FileOverride {
	f, ok := eff.Promote.FileFor(row.Namespace, row.App)
	if !ok {
		return nil
	}
	owner, name, _ := strings.Cut(f.Repo, "/")
	return &promote.FileOverride{Repo: promote.Repo{Owner: owner, Name: name}, Path: f.Path, Branch: f.Branch}
}

func promoteBudgets(eff config.Effective) model.PromotionBudgets {
	b := model.DefaultPromotionBudgets
	for _, s := range []struct {
		v string
		d *time.Duration
	}{{eff.Promote.Budgets.Review, &b.Review}, {eff.Promote.Budgets.Sync, &b.Sync}, {eff.Promote.Budgets.Rollout, &b.Rollout}} {
		if d, err := time.ParseDuration(s.v); err == nil && d > 0 {
			*s.d = d
		}
	}
	return b
}

func findRowByKey(rows []*model.AppView, k model.Key) *model.AppView {
	for _, r := range rows {
		if r.Key() == k {
			return r
		}
	}
	return nil
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
