// Package demo is driftboard's simulated fleet: client-go fake clientsets
// (two clusters, ~150 Apps across the Hanzo namespaces) driven by a
// simulator that plays the deployment, ReplicaSet and StatefulSet
// controllers, the kubelets, the Hanzo operator, GitHub and git. The board
// reads it through the real kube.Fleet, so everything from the informers up
// runs the same code as against a real cluster.
package demo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
)

// Options configure the demo.
type Options struct {
	// Seed fixes the fleet (every object, tag and pod name) and the stream
	// the scripted events are drawn from; what an event hits can still vary
	// with timing (which Apps are mid-rollout at that moment).
	Seed  int64
	Speed float64 // simulated seconds per real second; 0 means 1
	Apps  int     // fleet size; 0 means the full catalog (150)
	// Now is the clock (nil: time.Now). It must advance: the simulator paces
	// itself by it, with every simulated duration divided by Speed.
	Now func() time.Time
	// Quiet stops the scripted fleet life (git bumps, unready pods, moved
	// tags): only what clients write changes the fleet. For tests that hold
	// the demo's behaviour against a real cluster's.
	Quiet bool
	// HealthyReleases: the release reader answers every repo at once, with
	// a token (no repo pending, rate-limited or failing), as the
	// screenshots show the board.
	HealthyReleases bool
}

// Demo is a running simulated fleet.
type Demo struct {
	fleet    *kube.Fleet
	clusters []kube.ClusterClients
	sim      *sim
	rel      *Releases
	id       *identity
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	stopOnce sync.Once
}

// Start builds the fleet, starts the simulator and the kube.Fleet watching
// it, and returns without waiting for the Fleet to sync (the board shows
// "syncing" meanwhile). Everything stops with ctx or Stop.
func Start(ctx context.Context, opts Options) (*Demo, error) {
	if opts.Speed <= 0 {
		opts.Speed = 1
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	ctx, cancel := context.WithCancel(ctx)
	d := &Demo{cancel: cancel, id: newIdentity(opts.Now)}
	s := newSim(opts, d.id)
	d.sim, d.rel = s, s.rel
	for _, name := range clusterNames {
		fc := s.clusters[name]
		// The demo's clusters stand for ones trusting the IAM issuer: they
		// answer as the demo's IAM user, so restarts are made as it.
		d.clusters = append(d.clusters, kube.ClusterClients{Name: name, Kube: withPodLogs(fc.kube, opts.Now), Dynamic: fc.dyn,
			Identity: model.ClusterIdentity{IAM: true, User: "the demo's IAM user"}})
	}
	if err := s.materialize(ctx); err != nil {
		cancel()
		return nil, fmt.Errorf("demo: build the fleet: %w", err)
	}
	if err := s.watch(ctx); err != nil {
		cancel()
		s.shutdown()
		return nil, fmt.Errorf("demo: watch the fleet: %w", err)
	}
	s.nextEvent = opts.Now().Add(s.scale(firstEvent))
	d.fleet = kube.NewFleet(kube.FleetOptions{
		Releases: s.rel, Principal: d.id.principal, Now: opts.Now,
	}, d.clusters...)
	d.fleet.Start(ctx)
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		s.run(ctx)
		s.shutdown()
	}()
	return d, nil
}

// newSim builds the plan, the fake clusters and the simulator (not started).
func newSim(opts Options, id *identity) *sim {
	p := newPlan(opts.Seed, opts.Apps)
	s := &sim{
		plan: p, clusters: map[string]*fakeCluster{}, workloads: map[string]*workload{},
		apps: map[string]*appPlan{}, appKeys: map[string]string{},
		rng:       rand.New(rand.NewPCG(uint64(opts.Seed), 0x73696d)), //nolint:gosec // a demo, not a secret
		scriptRng: rand.New(rand.NewPCG(uint64(opts.Seed), 0x736372)), //nolint:gosec
		speed:     opts.Speed, now: opts.Now, quiet: opts.Quiet, reg: newRegistry(), journal: &journal{},
		queue: map[string]bool{}, wake: make(chan struct{}, 1),
	}
	s.rel = newReleases(p, s.reg, opts.Now, s.scale, opts.HealthyReleases)
	for _, name := range clusterNames {
		s.clusters[name] = newFakeCluster(name, opts.Now, id)
	}
	s.seedUniverse()
	return s
}

// Stop ends the simulator and the Fleet's informers and waits for the
// simulator to finish.
func (d *Demo) Stop() {
	d.stopOnce.Do(func() {
		d.cancel()
		d.wg.Wait()
	})
}

// Fleet is the real kube.Fleet watching the simulated clusters: the board's
// Source and Restarter.
func (d *Demo) Fleet() *kube.Fleet { return d.fleet }

// Clusters are the simulated clusters' clients.
func (d *Demo) Clusters() []kube.ClusterClients { return d.clusters }

// Releases is the demo's release source (a kube.ReleaseSource).
func (d *Demo) Releases() kube.ReleaseSource { return d.rel }

// Principal is who the demo is logged in as.
func (d *Demo) Principal() *model.Principal { return d.id.principal() }

// Expiry is when the demo identity's token "expires".
func (d *Demo) Expiry() time.Time { return d.id.expiresAt() }

// Source says where the identity comes from, for the status bar.
func (d *Demo) Source() string { return "demo" }

// SwitchIdentity logs in as the other demo principal (SuperAdmin ops@hanzo.ai
// or OrgAdmin of acme dana@acme.dev) with a fresh token, and returns it.
// The board's "log in again" can call it.
func (d *Demo) SwitchIdentity() *model.Principal {
	p := d.id.next()
	d.sim.journal.add(d.sim.now(), "IAM: logged in as %s (%s)", p.User, p.RoleName())
	return p
}

// Journal lists recent simulator events, oldest first ("15:04:05 GitHub:
// hanzoai/iam released v1.4.3 (5 assets)").
func (d *Demo) Journal() []string { return d.sim.journal.list() }
