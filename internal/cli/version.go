package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// Stamped by the build (Makefile, .goreleaser.yaml):
//
//	-ldflags "-X github.com/hanzoai/driftboard/cli.version=v1.2.3 -X ...cli.commit=abc -X ...cli.date=2026-12-01T04:00:00Z"
//
// Left empty, buildVersion falls back to what the Go toolchain recorded, so
// `go install github.com/hanzoai/driftboard@v1.2.3` still reports v1.2.3.
var version, commit, date string

// VersionInfo is what `driftboard version -o json` prints.
type VersionInfo struct {
	Version   string `json:"version"`
	Commit    string `json:"commit"`
	Date      string `json:"date"`
	GoVersion string `json:"goVersion"`
	Platform  string `json:"platform"`
}

// buildVersion merges the ldflags stamp with the module's build info; read
// is debug.ReadBuildInfo (a parameter so tests can give other build infos).
func buildVersion(read func() (*debug.BuildInfo, bool)) VersionInfo {
	v := VersionInfo{
		Version: version, Commit: commit, Date: date,
		GoVersion: runtime.Version(),
		Platform:  runtime.GOOS + "/" + runtime.GOARCH,
	}
	if bi, ok := read(); ok {
		// "(devel)" is what a plain `go build` in a checkout records: no
		// version is known, so it is not reported as one.
		if v.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v.Version = bi.Main.Version
		}
		modified := false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if v.Commit == "" {
					v.Commit = s.Value
				}
			case "vcs.time":
				if v.Date == "" {
					v.Date = s.Value
				}
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if modified && commit == "" && v.Commit != "" {
			v.Commit += "-dirty"
		}
		if bi.GoVersion != "" {
			v.GoVersion = bi.GoVersion
		}
	}
	if v.Version == "" {
		v.Version = "dev"
	}
	if v.Commit == "" {
		v.Commit = "unknown"
	}
	if v.Date == "" {
		v.Date = "unknown"
	}
	return v
}

func (v VersionInfo) String() string {
	return fmt.Sprintf("driftboard %s (commit %s, built %s, %s, %s)", v.Version, v.Commit, v.Date, v.GoVersion, v.Platform)
}

func (a *app) versionCommand() *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version, commit, build date and Go version",
		Example: `  driftboard version
  driftboard version -o json | jq -r .version`,
		Args:              cobra.NoArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v := buildVersion(debug.ReadBuildInfo)
			switch output {
			case "text":
				_, err := fmt.Fprintln(cmd.OutOrStdout(), v)
				return err
			case "json":
				return writeJSON(cmd.OutOrStdout(), v)
			case "yaml":
				return writeYAML(cmd.OutOrStdout(), v)
			}
			return usageErr("-o must be text, json or yaml, not %q", output)
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: text|json|yaml")
	completeFixed(cmd, "output", "text", "json", "yaml")
	return cmd
}
