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
		Use:   "completion bash|zsh|fish|powershell",
		Short: "Print a shell completion script",
		Long: `Print a completion script for bash, zsh, fish or PowerShell. It completes commands,
flags, kubeconfig contexts, environments and app names (app names by a quick list).

bash needs the bash-completion package, loaded by your ~/.bashrc (bash-completion
on Debian, Ubuntu and Fedora; in Homebrew bash-completion@2, or bash-completion
for macOS's own bash 3.2); without it a TAB says "_get_comp_words_by_ref:
command not found". zsh needs compinit (oh-my-zsh and most setups run it).`,
		Example: `  source <(driftboard completion bash)       # in ~/.bashrc, after bash-completion
  driftboard completion zsh > "${fpath[1]}/_driftboard"
  driftboard completion fish > ~/.config/fish/completions/driftboard.fish
  driftboard completion powershell | Out-String | Invoke-Expression   # in $PROFILE`,
		Args:      cobra.MatchAll(cobra.ExactArgs(1), cobra.OnlyValidArgs),
		ValidArgs: []string{"bash", "zsh", "fish", "powershell"},
		RunE: func(cmd *cobra.Command, args []string) error {
			root, out := cmd.Root(), cmd.OutOrStdout()
			switch args[0] {
			case "bash":
				return root.GenBashCompletionV2(out, true)
			case "zsh":
				return root.GenZshCompletion(out)
			case "powershell":
				return root.GenPowerShellCompletionWithDesc(out)
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
