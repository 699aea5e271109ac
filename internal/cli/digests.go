package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
)

// tagDigestWait bounds how long get waits for the registry's answer on the
// declared tag's digest (a cached answer is there at once).
const tagDigestWait = 3 * time.Second

// withDigests returns a copy of row with the digests its pods run (one
// LIST of the workload's pods) and, when the registry answers in time, the
// declared tag's digest. A failed read is a warning: the rest still prints.
func (a *app) withDigests(ctx context.Context, fl *kube.Fleet, row *model.AppView) *model.AppView {
	r := *row
	if r.Release.State != model.ReleaseOff && r.Release.TagDigest == "" {
		wait, cancel := context.WithTimeout(ctx, tagDigestWait)
		for r.Release.TagDigest == "" && r.Release.DigestNote == "" && wait.Err() == nil {
			select {
			case <-wait.Done():
			case <-fl.Changed():
				for v := range fl.Snapshot().All() {
					if v.Key() == r.Key() {
						r.Release = v.Release
					}
				}
			}
		}
		cancel()
	}
	if !r.Workload.Found {
		return &r
	}
	running, err := fl.RunningDigests(ctx, r.Key())
	switch {
	case errors.Is(err, kube.ErrNoWorkload):
	case err != nil:
		fmt.Fprintf(a.streams.Err, "Warning: running digests not read: %s\n", errorLines(err))
	default:
		r.Workload.Digests, r.Workload.DigestsNote = running.Digests, running.Note()
	}
	return &r
}

// digestCheck is the registry truth of a row whose digests were read.
func digestCheck(r *model.AppView) model.DigestCheck {
	return r.DigestCheck(r.Workload.Digests)
}
