package cli

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
)

// usageTemplate is cobra's, as kubectl trims it: a command lists only its
// own flags; the global ones are on one page, 'driftboard options'.
const usageTemplate = `Usage:{{if .Runnable}}
  {{.UseLine}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} [command]{{end}}{{if gt (len .Aliases) 0}}

Aliases:
  {{.NameAndAliases}}{{end}}{{if .HasExample}}

Examples:
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}

Available Commands:{{range .Commands}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if .LocalNonPersistentFlags.HasAvailableFlags}}

Flags:
{{.LocalNonPersistentFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableSubCommands}}

Use "{{.CommandPath}} [command] --help" for more information about a command.{{end}}
Use "{{.Root.CommandPath}} options" for a list of global command-line options (applies to all commands).
`

// optionsCommand prints the flags every command takes, once (kubectl options).
func optionsCommand() *cobra.Command {
	return &cobra.Command{
		Use:               "options",
		Short:             "Print the flags every command takes",
		Args:              cobra.NoArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			root := cmd.Root()
			_, err := out.Write([]byte("The following options can be passed to any command:\n\n" +
				root.PersistentFlags().FlagUsages()))
			return err
		},
	}
}

// pluginName is "kubectl driftboard" when the binary runs as kubectl's
// plugin (kubectl-driftboard, as krew installs it), else "".
func pluginName(program string) string {
	base := strings.TrimSuffix(filepath.Base(program), ".exe")
	if base == "kubectl-driftboard" {
		return "kubectl driftboard"
	}
	return ""
}

var exampleCommand = regexp.MustCompile(`(?m)^(\s*)driftboard\b`)

// asPlugin names root (and every example below it) as kubectl's plugin.
func asPlugin(root *cobra.Command, name string) {
	root.Annotations[cobra.CommandDisplayNameAnnotation] = name
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Example = exampleCommand.ReplaceAllString(c.Example, "${1}"+name)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}
