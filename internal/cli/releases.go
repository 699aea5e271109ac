package cli

import (
	"context"
	"fmt"

	"github.com/hanzoai/driftboard/internal/config"
	"github.com/hanzoai/driftboard/internal/releasereader"
	"github.com/hanzoai/driftboard/kube"
)

// releaseSource is the GitHub release reader, running until ctx ends, or the
// "off" reader that hides release-derived drift.
func (a *app) releaseSource(ctx context.Context, eff config.Effective, registry bool) kube.ReleaseSource {
	if !eff.Releases.On() {
		return releasereader.Off()
	}
	r, err := releasereader.New(releasereader.Options{
		Interval:  eff.Releases.IntervalOrDefault(),
		GitHubURL: eff.Releases.GitHubURL,
		Repos:     repoMappings(eff.Releases.Repos),
		Getenv:    a.streams.Getenv,
		// The digest behind each declared tag, for "running digest ≠ tag
		// digest" in the board's detail and in get; list needs none.
		Registry: registry,
	})
	if err != nil {
		fmt.Fprintf(a.streams.Err, "Warning: release checks off: %s\n", errorLines(err))
		return releasereader.Off()
	}
	if st := r.Status(); st.Warning != "" {
		a.log.Warn("release checks", "warning", st.Warning) // the header and list say so too
	}
	// Stopped and waited for on exit, so its cache file is written before
	// the process (or a test's temporary home) goes away.
	rctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); r.Run(rctx) }()
	a.closers = append(a.closers, func() { stop(); <-done })
	return r
}

func repoMappings(in []config.RepoMapping) []releasereader.RepoMapping {
	out := make([]releasereader.RepoMapping, len(in))
	for i, m := range in {
		out[i] = releasereader.RepoMapping{Image: m.Image, GitHub: m.GitHub}
	}
	return out
}
