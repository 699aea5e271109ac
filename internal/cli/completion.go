package cli

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
)

func (a *app) completionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "completion bash|zsh|fish",
		Short: "Print a shell completion script",
		Long: `Print a completion script for bash, zsh or fish. It completes commands, flags,
kubeconfig contexts, environments and app names (app names by a quick list).`,
		Example: `  source <(driftboard completion bash)
  driftboard completion zsh > "${fpath[1]}/_driftboard"
  driftboard completion fish > ~/.config/fish/completions/driftboard.fish`,
		Args:      cobra.MatchAll(cobra.ExactArgs(1), cobra.OnlyValidArgs),
		ValidArgs: []string{"bash", "zsh", "fish"},
		RunE: func(cmd *cobra.Command, args []string) error {
			root, out := cmd.Root(), cmd.OutOrStdout()
			switch args[0] {
			case "bash":
				return root.GenBashCompletionV2(out, true)
			case "zsh":
				return root.GenZshCompletion(out)
			default:
				return root.GenFishCompletion(out, true)
			}
		},
	}
}

// registerFlagCompletions attaches value completion to the shared flags.
func (a *app) registerFlagCompletions(root *cobra.Command) {
	fixed := func(values ...string) cobra.CompletionFunc {
		return cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp)
	}
	_ = root.RegisterFlagCompletionFunc("context", a.completeContexts)
	_ = root.RegisterFlagCompletionFunc("namespace", fixed(append(model.PlatformNamespaces(), model.TenantPrefix)...))
	_ = root.RegisterFlagCompletionFunc("releases", fixed("on", "off"))
	_ = root.RegisterFlagCompletionFunc("v", fixed("0", "1", "2", "4", "6", "8"))
	for _, f := range []string{"selector", "issuer", "client-id"} {
		_ = root.RegisterFlagCompletionFunc(f, cobra.NoFileCompletions)
	}
}

// completeContexts offers the kubeconfig's context names; several may be
// given comma separated, so the prefix after the last comma is completed.
func (a *app) completeContexts(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	names, err := kube.ContextNames(a.opts.kubeconfig)
	if err != nil {
		return cobra.AppendActiveHelp(nil, "cannot read kubeconfig: "+err.Error()), cobra.ShellCompDirectiveNoFileComp
	}
	done, _ := cutLast(toComplete, ",")
	var out []cobra.Completion
	for _, n := range names {
		c := n
		if done != "" {
			if slices.Contains(strings.Split(done, ","), n) {
				continue
			}
			c = done + "," + n
		}
		if strings.HasPrefix(c, toComplete) {
			out = append(out, c)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

func cutLast(s, sep string) (before, after string) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return "", s
	}
	return s[:i], s[i+len(sep):]
}
