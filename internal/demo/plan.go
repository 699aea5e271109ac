package demo

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// repoPlan is what GitHub "knows" of one image repo: its releases, in order.
type repoPlan struct {
	name       string
	versions   []string       // released tags, oldest first; the last is the latest release
	assets     map[string]int // assets per released tag
	unreleased string         // a pushed tag without a release ("" = none)
	state      model.ReleaseState
}

func (r *repoPlan) latest() string { return r.versions[len(r.versions)-1] }

// previous returns the release n steps before the latest (clamped).
func (r *repoPlan) previous(n int) string { return r.versions[max(len(r.versions)-1-n, 0)] }

// appPlan is one App with its versions and size drawn.
type appPlan struct {
	catalogEntry
	declared, running string // App tag; tag the settled pods run
	replicas          int32
	replicasAbsent    bool // spec.replicas left out (means 1)
	age               time.Duration
	org               string // hanzo.ai/org label, "" when the image's brand says it
	hosts             []string
}

func (a *appPlan) key() string { return a.cluster + "/" + a.ns + "/" + a.name }

// plan is the whole demo fleet before any object exists.
type plan struct {
	apps      []*appPlan
	repos     map[string]*repoPlan
	repoNames []string        // sorted
	broken    map[string]bool // repo:tag whose image was never pushed
}

// How the release reader fares with some repos (every other repo is found).
var repoStates = map[string]model.ReleaseState{
	"luxfi/netrunner": model.ReleaseError,
	"zooai/gym":       model.ReleaseRateLimited,
	"luxfi/safe":      model.ReleaseRateLimited,
	"hanzoai/flow":    model.ReleaseRateLimited,
	"zooai/agents":    model.ReleasePending,
	"luxfi/markets":   model.ReleasePending,
}

var hostDomains = map[string]string{
	"hanzo": "hanzo.ai", "hanzo-mainnet": "mainnet.hanzo.network", "hanzo-testnet": "testnet.hanzo.network",
	"hanzo-devnet": "devnet.hanzo.network", "tenant-acme": "acme.dev", "tenant-zoo": "zoo.ngo", "tenant-lux": "lux.network",
}

func newPlan(seed int64, apps int) *plan {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x64726966)) //nolint:gosec // a demo, not a secret
	p := &plan{repos: map[string]*repoPlan{}}
	entries := sized(catalog(), apps)
	for _, e := range entries {
		if e.repo != "" && p.repos[e.repo] == nil {
			p.repos[e.repo] = nil
			p.repoNames = append(p.repoNames, e.repo)
		}
	}
	sort.Strings(p.repoNames)
	for _, name := range p.repoNames {
		p.repos[name] = newRepoPlan(rng, name)
	}
	for _, e := range entries {
		p.apps = append(p.apps, newAppPlan(rng, e, p.repos[e.repo]))
	}
	// The stuck App's new tag was released but its image never pushed: no
	// other App can be running it.
	p.broken = map[string]bool{}
	for _, s := range p.apps {
		if s.sc != scStuck {
			continue
		}
		p.broken[s.repo+":"+s.declared] = true
		for _, a := range p.apps {
			if a.repo == s.repo && !a.fixed && a.declared == s.declared {
				a.sc, a.declared, a.running = scStale, p.repos[a.repo].previous(1), p.repos[a.repo].previous(1)
			}
		}
	}
	return p
}

// unpullable reports whether an image tag cannot be pulled: the new tag of
// a stuck App.
func (p *plan) unpullable(repo, tag string) bool { return p.broken[repo+":"+tag] }

func newRepoPlan(rng *rand.Rand, name string) *repoPlan {
	r := &repoPlan{name: name, assets: map[string]int{}, state: model.ReleaseFound}
	if st, ok := repoStates[name]; ok {
		r.state = st
	}
	major, minor, patch := []int{0, 1, 1, 2}[rng.IntN(4)], 1+rng.IntN(24), rng.IntN(6)
	for range 4 {
		if rng.IntN(4) == 0 {
			minor, patch = minor+1, 0
		} else {
			patch += 1 + rng.IntN(2)
		}
		tag := fmt.Sprintf("v%d.%d.%d", major, minor, patch)
		r.versions = append(r.versions, tag)
		r.assets[tag] = 2 + rng.IntN(7)
	}
	return r
}

func newAppPlan(rng *rand.Rand, e catalogEntry, repo *repoPlan) *appPlan {
	a := &appPlan{catalogEntry: e, age: time.Duration(3+rng.IntN(400)) * 24 * time.Hour}
	if !e.fixed {
		staleOdds := map[string]int{"hanzo-devnet": 10, "hanzo-testnet": 20}[e.ns]
		if staleOdds == 0 {
			staleOdds = 30
		}
		switch n := rng.IntN(100); {
		case n < staleOdds:
			a.sc = scStale
		case n < staleOdds+4:
			a.sc = scDegraded
		}
	}
	if e.ns != "" && e.ns[:min(len(e.ns), 7)] == "tenant-" {
		a.org = e.ns[len("tenant-"):]
	}
	a.replicas = replicasFor(rng, e)
	a.replicasAbsent = a.replicas == 1 && rng.IntN(2) == 0
	if a.sc == scScaledZero {
		a.replicas, a.replicasAbsent = 0, false
	}
	if model.ExpectedKind(e.role) == model.KindDeployment && e.repo != "" && rng.IntN(5) < 3 {
		domain := hostDomains[e.ns]
		if e.cluster == "demo-eu" && e.ns == "hanzo" {
			domain = "eu.hanzo.ai"
		}
		a.hosts = []string{e.name + "." + domain}
	}
	if repo == nil {
		return a
	}
	a.declared, a.running = repo.latest(), repo.latest()
	switch a.sc {
	case scStale:
		a.declared = repo.previous(1 + rng.IntN(2))
		a.running = a.declared
	case scRolling, scPaused, scStuck:
		a.running = repo.previous(1)
	case scFloating:
		a.declared = "main"
		if e.ns == "tenant-acme" {
			a.declared = "latest"
		}
		a.running = a.declared
	case scNoRelease:
		repo.unreleased = bump(repo.latest())
		a.declared, a.running = repo.unreleased, repo.unreleased
	case scZeroAssets:
		repo.assets[repo.latest()] = 0
	case scLegacy:
		a.running = "latest"
	case scBadImage:
		a.declared = repo.previous(2)
		a.running = a.declared
	}
	return a
}

func replicasFor(rng *rand.Rand, e catalogEntry) int32 {
	switch {
	case e.repo == "luxfi/node":
		return 5
	case e.role == "datastore" && e.repo == "hanzoai/clickhouse":
		return 1
	case model.ExpectedKind(e.role) == model.KindStatefulSet:
		if e.ns == "hanzo-devnet" {
			return 1
		}
		return 3
	case e.ns == "hanzo-devnet":
		return 1
	case e.ns == "hanzo-testnet":
		return int32(1 + rng.IntN(2))
	}
	return int32(2 + rng.IntN(2))
}

// bump returns the next patch version of a vX.Y.Z tag.
func bump(tag string) string {
	var a, b, c int
	if _, err := fmt.Sscanf(tag, "v%d.%d.%d", &a, &b, &c); err != nil {
		return tag + ".1"
	}
	return fmt.Sprintf("v%d.%d.%d", a, b, c+1)
}
