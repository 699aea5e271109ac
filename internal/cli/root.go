package cli

import (
	"runtime/debug"

	"github.com/spf13/cobra"
)

// annotation marking commands that own the screen: logs never go to stderr.
const screenAnnotation = "driftboard/screen"

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "driftboard",
		Short: "A live terminal board of version drift across a Hanzo fleet",
		Long: `driftboard shows, for every App in your clusters, the tag declared in git, the tag
in the workload, what the pods really run and the newest release — and flags the drift.

Run it without arguments in a terminal for the live board; use 'driftboard list'
in scripts and CI. 'driftboard demo' shows the board on a simulated fleet.`,
		Example: `  driftboard                          # the live board (needs a terminal)
  driftboard demo                     # the board on a built-in simulated fleet
  driftboard list -q 'sev:red env:main'
  driftboard restart iam --env test --yes --wait`,
		Args:              cobra.NoArgs,
		SilenceUsage:      true,
		SilenceErrors:     true,
		Annotations:       map[string]string{screenAnnotation: "true"},
		PersistentPreRunE: a.preRun,
		RunE:              a.runBoard,
		ValidArgsFunction: cobra.NoFileCompletions,
	}
	root.CompletionOptions.DisableDefaultCmd = true
	// --version, as kubectl and gh have it: the line 'driftboard version' prints.
	v := buildVersion(debug.ReadBuildInfo)
	root.Version = v.Version
	root.SetVersionTemplate(v.String() + "\n")
	a.opts.register(root.PersistentFlags())
	a.registerFlagCompletions(root)
	root.AddCommand(
		a.demoCommand(),
		a.listCommand(),
		a.getCommand(),
		a.logsCommand(),
		a.restartCommand(),
		a.promoteCommand(),
		a.watchCommand(),
		a.loginCommand(),
		a.logoutCommand(),
		a.whoamiCommand(),
		a.configCommand(),
		a.completionCommand(),
		a.versionCommand(),
		optionsCommand(),
	)
	root.SetUsageTemplate(usageTemplate)
	if name := pluginName(a.streams.Program); name != "" {
		asPlugin(root, name)
	}
	usageErrors(root)
	return root
}

// preRun validates the shared flags and starts logging before any command.
func (a *app) preRun(cmd *cobra.Command, _ []string) error {
	if err := a.opts.validate(); err != nil {
		return err
	}
	if f := cmd.Flags().Lookup("timeout"); f != nil {
		a.timeout = f.Value.String()
	}
	return a.setupLogging(cmd.Annotations[screenAnnotation] == "true")
}
