package cli

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/hanzoai/driftboard/internal/config"
	"github.com/hanzoai/driftboard/internal/demo"
	"github.com/hanzoai/driftboard/internal/githubforge"
	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/ui"
)

func (a *app) demoCommand() *cobra.Command {
	var o demo.Options
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run the board on a built-in simulated fleet (no cluster needed)",
		Long: `Run the real board against an in-process simulated fleet: two clusters and about
150 Apps across the Hanzo namespaces, with every kind of drift, rollouts that
progress (and one that gets stuck), new releases appearing, and restarts that
really roll the simulated pods. You are logged in as a demo OrgAdmin or
SuperAdmin; 'L' switches between them.`,
		Example: `  driftboard demo
  driftboard demo --speed 10 --seed 7`,
		Args:        cobra.NoArgs,
		Annotations: map[string]string{screenAnnotation: "true"},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.needTerminal(); err != nil {
				return err
			}
			eff, err := a.effective()
			if err != nil {
				return err
			}
			if o.Speed <= 0 {
				return usageErr("--speed must be more than 0")
			}
			ctx, cancel := context.WithCancel(cmd.Context())
			defer cancel()
			d, err := demo.Start(ctx, o)
			if err != nil {
				return err
			}
			defer d.Stop()
			return a.showBoard(ctx, composeBoard(oneFleet{d.Fleet()}, eff, a.opts.noColor, demoForge(d)), demoIdentity{d})
		},
	}
	cmd.Flags().Int64Var(&o.Seed, "seed", 1, "the same seed builds the same fleet and plays the same events")
	cmd.Flags().Float64Var(&o.Speed, "speed", 1, "simulated seconds per real second")
	cmd.Flags().IntVar(&o.Apps, "apps", 0, "fleet size (0: the full catalog of about 150)")
	return cmd
}

// demoIdentity is the demo's logged-in user for the board; "log in again"
// switches between its SuperAdmin and its OrgAdmin.
type demoIdentity struct{ d *demo.Demo }

func (i demoIdentity) Current() ui.IdentityState {
	return ui.IdentityState{Principal: i.d.Principal(), Expiry: i.d.Expiry(), Source: i.d.Source(), SwitchesUser: true}
}

func (i demoIdentity) Login(ctx context.Context, prompt func(ui.LoginPrompt)) error {
	prompt(ui.LoginPrompt{
		UserCode:        "DEMO-0000",
		VerificationURI: "https://hanzo.id/device (demo: nothing to open)",
		ExpiresAt:       time.Now().Add(15 * time.Minute),
	})
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Second): // long enough to read the dialog
	}
	i.d.SwitchIdentity()
	return nil
}

// demoForge is the demo's GitHub, whose repositories are on github.com.
func demoForge(d *demo.Demo) forgeSource {
	return forgeSource{forge: d.GitHub(), repoOf: func(u string) (promote.Repo, error) { return githubforge.ParseRepoURL(u, "github.com") }}
}

// NewDemoBoard is the board over the demo as `driftboard demo` assembles
// it, its GitHub included.
func NewDemoBoard(d *demo.Demo, eff config.Effective) Board {
	return composeBoard(oneFleet{d.Fleet()}, eff, false, demoForge(d))
}
