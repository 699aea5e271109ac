package cli

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// completeAppNames completes App names from a quick list of the clusters
// (bounded to a few seconds), narrowed by --env when it was typed; after a
// '/' it completes NAMESPACE/APP.
func (a *app) completeAppNames(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	env, _ := cmd.Flags().GetString("env")
	ctx, cancel := context.WithTimeout(cmd.Context(), 5*time.Second)
	defer cancel()
	snap, _ := a.syncedSnapshot(ctx, fleetRequest{releasesOff: true, noRegistry: true}) // names need no release checks
	if snap == nil {
		return cobra.AppendActiveHelp(nil, "could not list Apps from the cluster"), cobra.ShellCompDirectiveNoFileComp
	}
	var names []string
	for r := range snap.All() {
		name := r.App
		if strings.Contains(toComplete, "/") { // NAMESPACE/APP
			name = r.Namespace + "/" + r.App
		}
		if (env == "" || string(r.Env) == env) && strings.HasPrefix(name, toComplete) && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names, cobra.ShellCompDirectiveNoFileComp
}
