package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/hanzoai/driftboard/auth"
	"github.com/hanzoai/driftboard/internal/termtext"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/kube/cd"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// actor is who a fleet acts as. With a session, requests carry the IAM token
// (where the cluster trusts it); principal adds the IAM scope to the restart
// checks. A nil actor reads with the kubeconfig identities and no IAM scope.
type actor struct {
	session   *auth.Session
	principal func() *model.Principal
}

// fleetRequest is what one command asks of the fleet beyond the shared
// flags. It is built per call, so the parsed flags stay as parsed.
type fleetRequest struct {
	as          *actor   // nil: read as the kubeconfig identity
	contexts    []string // narrows the contexts when --context did not choose
	namespaces  []string // narrows the namespaces when -n did not choose
	releasesOff bool     // no release checks (completion needs only names)
	noRegistry  bool     // no registry digest reads (digests are detail-only)
}

// openFleet connects to the chosen contexts and starts watching them until
// ctx ends.
func (a *app) openFleet(ctx context.Context, req fleetRequest) (*kube.Fleet, error) {
	eff, err := a.effective()
	if err != nil {
		return nil, err
	}
	// chosen narrows a Karmada source's members too: contexts a command
	// chose, not the config file's list.
	var chosen []string
	if len(a.opts.contexts) > 0 {
		chosen = a.opts.contexts
	}
	if len(req.contexts) > 0 && len(a.opts.contexts) == 0 && !a.opts.allContexts {
		eff.Contexts, chosen = req.contexts, req.contexts
	}
	if req.releasesOff {
		off := false
		eff.Releases.Enabled = &off
	}
	namespaces := a.opts.namespaces
	if len(namespaces) == 0 {
		namespaces = req.namespaces
	}
	if eff.Karmada != nil {
		eff.Contexts = karmadaContexts(eff.Karmada, eff.Contexts)
	}
	as := req.as
	var clusters []kube.ClusterClients
	var failed []model.ClusterState
	var principal func() *model.Principal
	var act func(context.Context) (context.Context, *model.Principal, error)
	switch {
	case eff.Karmada != nil && len(eff.Contexts) == 0: // every member read through Karmada alone
	case as != nil && as.session != nil:
		clusters, failed = a.connectAsIAM(ctx, eff, as.session)
		act = as.session.Act // each restart check and restart: one verified token
	default:
		clusters, failed = a.connect(eff.Contexts)
	}
	if eff.Karmada != nil {
		clusters, failed = a.throughKarmada(eff.Karmada, chosen, clusters, failed)
	}
	if as != nil {
		principal = as.principal
	}
	if len(clusters) == 0 {
		return nil, clusterErrors(failed, a.opts.kubeconfig == "")
	}
	for _, c := range clusters {
		a.servers[c.Name] = c.Server
	}
	fl := kube.NewFleet(kube.FleetOptions{
		Namespaces:    namespaces,
		LabelSelector: a.opts.selector,
		Releases:      a.releaseSource(ctx, eff, !req.noRegistry),
		ReadOnly:      eff.ReadOnly,
		// A context the config makes read-only refuses restarts and CD syncs.
		ReadOnlyContexts: restartPolicy(eff).ReadOnlyContexts,
		CDKinds:          cdKinds(eff.CD.ApplicationKinds),
		Failed:           failed,
		Principal:        principal,
		Act:              act,
	}, clusters...)
	fl.Start(ctx)
	return fl, nil
}

// syncedSnapshot opens the fleet and returns its first complete snapshot.
// The snapshot is nil when no cluster could be read; err lists what failed.
func (a *app) syncedSnapshot(ctx context.Context, req fleetRequest) (*store.Snapshot, error) {
	fl, err := a.openFleet(ctx, req)
	if err != nil {
		return nil, err
	}
	return a.waitSnapshot(ctx, fl)
}

// waitSnapshot waits for every cluster to sync (or fail) and for the release
// checks to answer, then takes the snapshot.
func (a *app) waitSnapshot(ctx context.Context, fl *kube.Fleet) (*store.Snapshot, error) {
	stopSaying := a.sayRetries(fl)
	syncErr := a.namesHung(fl, fl.WaitSynced(ctx))
	stopSaying()
	snap := fl.Snapshot()
	// The first snapshot starts pod watches for workloads that roll out or
	// are unready; once they have listed, the rows name failing pods.
	if fl.WaitPodWatches(ctx) {
		snap = fl.Snapshot()
	}
	for pendingReleases(snap) > 0 && ctx.Err() == nil {
		select {
		case <-ctx.Done():
		case <-fl.Changed():
			snap = fl.Snapshot()
		}
	}
	live := 0
	for _, c := range snap.Clusters {
		if c.Phase == model.ConnLive {
			live++
		}
		for _, n := range c.Notices {
			fmt.Fprintf(a.streams.Err, "notice: cluster %s: %s\n", termtext.Sanitize(c.Name), termtext.Sanitize(n))
		}
	}
	if live == 0 {
		if syncErr == nil {
			syncErr = errors.New("no cluster could be read")
		}
		return nil, syncErr
	}
	return snap, syncErr
}

func pendingReleases(s *store.Snapshot) int {
	n := 0
	for r := range s.All() {
		if r.Release.State == model.ReleasePending {
			n++
		}
	}
	return n
}

// cdKinds are the configured CD Application kinds (validated when the file
// was read); nil keeps the fleet's defaults.
func cdKinds(names []string) []cd.Kind {
	var out []cd.Kind
	for _, n := range names {
		if k, err := cd.ParseKind(n); err == nil {
			out = append(out, k)
		}
	}
	return out
}
