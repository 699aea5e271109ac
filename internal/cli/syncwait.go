package cli

import (
	"fmt"

	"github.com/hanzoai/driftboard/internal/termtext"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
)

// sayRetries prints on stderr, while a command waits for the clusters'
// first sync, each cluster whose lists fail and are retried, with the last
// error seen (once per error), so a wait that ends only at the sync's bound
// (kube.DefaultSyncFailAfter) does not pass in silence. It returns the func
// that stops it.
func (a *app) sayRetries(fl *kube.Fleet) (stop func()) {
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		said := map[string]string{}
		for {
			for _, c := range fl.ClusterStates() {
				if c.Phase == model.ConnSyncing && c.Reason != "" && said[c.Name] != c.Reason {
					said[c.Name] = c.Reason
					fmt.Fprintf(a.streams.Err, "waiting: cluster %s %s\n", termtext.Sanitize(c.Name), termtext.Sanitize(c.SyncingWords()))
				}
			}
			select {
			case <-done:
				return
			case <-fl.Changed():
			}
		}
	}()
	return func() { close(done); <-finished }
}
