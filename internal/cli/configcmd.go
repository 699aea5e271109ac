package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hanzoai/driftboard/internal/config"
)

func (a *app) configCommand() *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Print the effective configuration, with where each value came from",
		Long: `Print the configuration in force: command-line flags beat the environment
(HANZO_IAM_ISSUER, HANZO_CLIENT_ID), which beats the config file, which beats the
defaults. The file is $XDG_CONFIG_HOME/driftboard/config.yaml (else
~/.config/driftboard/config.yaml) or --config. A bad file is an error naming its
file, line and field. The YAML printed is itself a valid config file.`,
		Example: `  driftboard config
  driftboard config -o json
  driftboard config schema > driftboard.schema.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			eff, err := a.effective()
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			switch output {
			case "yaml", "":
				b, err := eff.YAML(a.cfgPath, a.cfgFound)
				if err != nil {
					return err
				}
				_, err = out.Write(b)
				return err
			case "json":
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(eff.Config)
			}
			return usageErr("-o must be yaml or json, not %q", output)
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "yaml", "output format: yaml|json")
	_ = cmd.RegisterFlagCompletionFunc("output", cobra.FixedCompletions([]string{"yaml", "json"}, cobra.ShellCompDirectiveNoFileComp))
	cmd.AddCommand(&cobra.Command{
		Use:   "schema",
		Short: "Print the config file's JSON Schema",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprint(cmd.OutOrStdout(), string(config.Schema()))
			return err
		},
	})
	return cmd
}
