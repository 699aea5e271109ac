package cli

import (
	"context"
	"fmt"

	"github.com/hanzoai/driftboard/config"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/release"
)

// releaseSource is the GitHub release reader, running until ctx ends, or the
// "off" reader that hides release-derived drift.
func (a *app) releaseSource(ctx context.Context, eff config.Effective) kube.ReleaseSource {
	if !eff.Releases.On() {
		return release.Off()
	}
	r, err := release.New(release.Options{
		Interval:  eff.Releases.IntervalOrDefault(),
		GitHubURL: eff.Releases.GitHubURL,
		Getenv:    a.streams.Getenv,
		// The digest behind each declared tag, for "running digest ≠ tag
		// digest" in the board's detail and in get; list needs none.
		Registry: !a.noRegistry,
	})
	if err != nil {
		fmt.Fprintf(a.streams.Err, "warning: release checks off: %v\n", err)
		return release.Off()
	}
	if st := r.Status(); st.Warning != "" {
		a.log.Warn("release checks", "warning", st.Warning)
	}
	go r.Run(ctx)
	return r
}
