package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
)

// demoHint follows a kubeconfig that could not be found: the demo needs none.
const demoHint = "to see driftboard without a cluster, run 'driftboard demo'"

// clusterErrors joins the failed clusters' reasons; a kubeconfig not found
// (none named) points at the demo.
func clusterErrors(states []model.ClusterState, hint bool) error {
	var errs []error
	for _, st := range states {
		if st.Name == kube.KubeconfigFailure {
			msg := st.Reason
			if hint {
				msg += "; " + demoHint
			}
			errs = append(errs, errors.New(msg))
			continue
		}
		errs = append(errs, fmt.Errorf("cluster %s: %s", st.Name, st.Reason))
	}
	if len(errs) == 0 {
		return errors.New("no cluster to watch")
	}
	return errors.Join(errs...)
}

// namesHung turns the end of --timeout while clusters had not synced into
// an error naming each of them, its API server and its last error: a server
// that accepts and never answers is otherwise only "context deadline
// exceeded".
func (a *app) namesHung(fl *kube.Fleet, err error) error {
	if !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	within := "before the deadline"
	if a.timeout != "" {
		within = "within --timeout " + a.timeout
	}
	var errs []error
	for _, c := range fl.ClusterStates() {
		if c.Phase == model.ConnLive || c.Phase == model.ConnFailed {
			continue
		}
		at := ""
		if s := a.servers[c.Name]; s != "" {
			at = " at " + s
		}
		msg := fmt.Sprintf("cluster %s%s: no answer %s (%s)", c.Name, at, within, c.Phase)
		if c.Reason != "" {
			msg += "; last error: " + c.Reason
		}
		errs = append(errs, errors.New(msg))
	}
	if len(errs) == 0 {
		return err
	}
	return errors.Join(errs...)
}
