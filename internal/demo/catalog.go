package demo

import (
	"strconv"
	"strings"
)

// scenario is what the demo makes of one App. Most are healthy or merely
// stale; the rest each show one thing the board must make visible.
type scenario int

const (
	scOK          scenario = iota // declared = running = latest
	scStale                       // a newer release exists
	scRolling                     // the App's tag was bumped; the rollout runs when the demo starts
	scStuck                       // the new tag's image cannot be pulled: ProgressDeadlineExceeded
	scPaused                      // the Deployment is paused with a new template: never rolls
	scFloating                    // declares a floating tag (latest/main) and runs it
	scNoRelease                   // declares a tag that has no GitHub release
	scZeroAssets                  // declares a release that shipped no assets
	scCrashLoop                   // no pod ever becomes ready: red
	scDegraded                    // one pod never becomes ready: yellow
	scScaledZero                  // replicas 0: yellow
	scMissing                     // the App's workload does not exist
	scLegacy                      // a Deployment the App does not own, running latest
	scIngress                     // role ingress: no workload by design
	scNoImage                     // a route-only App without image
	scBadImage                    // spec.image is a string, not an object
	scBadReplicas                 // spec.replicas is a string
)

var scenarioNames = map[string]scenario{
	"ok": scOK, "stale": scStale, "rolling": scRolling, "stuck": scStuck, "paused": scPaused,
	"floating": scFloating, "norelease": scNoRelease, "zeroassets": scZeroAssets,
	"crashloop": scCrashLoop, "degraded": scDegraded, "zero": scScaledZero, "missing": scMissing,
	"legacy": scLegacy, "ingress": scIngress, "noimage": scNoImage, "badimage": scBadImage,
	"badreplicas": scBadReplicas,
}

// special reports whether the scenario must survive when the fleet is trimmed.
func (s scenario) special() bool { return s != scOK && s != scStale }

// catalogEntry is one App of the fleet before versions are drawn.
type catalogEntry struct {
	cluster, ns, name, role, repo string
	kind                          string // App or Service
	sc                            scenario
	// fixed says the scenario was chosen by hand; otherwise the seed decides
	// between ok, stale and (rarely) degraded.
	fixed bool
}

// The fleet, one line per App: "name role repo [scenario] [kind]". Repos
// are image paths on ghcr.io. Namespaces and roles follow hanzo-facts.md.
var catalogText = map[string]map[string]string{
	"demo": {
		"hanzo": `
iam iam hanzoai/iam
kms kms hanzoai/kms
console spa hanzoai/console rolling
gateway service hanzoai/gateway
cloud service hanzoai/cloud
platform service hanzoai/platform
llm llm hanzoai/llm
chat service hanzoai/chat
search service hanzoai/search stuck
docs static hanzoai/docs zeroassets
billing service hanzoai/billing badreplicas
commerce service hanzoai/commerce
analytics service hanzoai/analytics paused
insights observability hanzoai/insights
vector service hanzoai/vector
functions function hanzoai/functions
bot service hanzoai/bot
flow service hanzoai/flow
studio spa hanzoai/studio
registry service hanzoai/registry
mpc service hanzoai/mpc norelease
id spa hanzoai/id
mail service hanzoai/mail
notify queue hanzoai/notify
jobs queue hanzoai/jobs
web spa hanzoai/web
paas service hanzoai/paas legacy
ingress ingress - ingress
status static - noimage
legacy-api service hanzoai/legacy-api badimage
sql sql hanzoai/sql
kv kv hanzoai/kv
docdb docdb hanzoai/docdb
s3 s3 hanzoai/s3
clickhouse datastore hanzoai/clickhouse
nats queue hanzoai/nats
observe observability hanzoai/observe
ml llm hanzoai/ml
engine llm hanzoai/engine
edge service hanzoai/edge`,
		"hanzo-mainnet": `
explorer explorer hanzoai/explorer
indexer indexer hanzoai/indexer
rpc service hanzoai/rpc
bridge service hanzoai/bridge rolling
graph indexer hanzoai/graph
wallet spa hanzoai/wallet
dex service hanzoai/dex
oracle service hanzoai/oracle
relayer service hanzoai/relayer
node datastore hanzoai/node
archive datastore hanzoai/node
safe spa hanzoai/safe
staking spa hanzoai/staking
governance spa hanzoai/governance
sql sql hanzoai/sql
kv kv hanzoai/kv
api service hanzoai/api
mpc-node service hanzoai/mpc`,
		"hanzo-testnet": `
explorer explorer hanzoai/explorer
indexer indexer hanzoai/indexer
rpc service hanzoai/rpc
bridge service hanzoai/bridge
graph indexer hanzoai/graph
wallet spa hanzoai/wallet
dex service hanzoai/dex
oracle service hanzoai/oracle crashloop
relayer service hanzoai/relayer
node datastore hanzoai/node
safe spa hanzoai/safe
faucet service hanzoai/faucet
sql sql hanzoai/sql
kv kv hanzoai/kv
api service hanzoai/api
mpc-node service hanzoai/mpc`,
		"hanzo-devnet": `
explorer explorer hanzoai/explorer floating
indexer indexer hanzoai/indexer
rpc service hanzoai/rpc
bridge service hanzoai/bridge
graph indexer hanzoai/graph
wallet spa hanzoai/wallet
dex service hanzoai/dex
oracle service hanzoai/oracle
relayer service hanzoai/relayer
node datastore hanzoai/node
faucet service hanzoai/faucet
sql sql hanzoai/sql
kv kv hanzoai/kv
api service hanzoai/api
mpc-node service hanzoai/mpc
playground - hanzoai/playground ok Service`,
		"tenant-acme": `
web spa hanzoai/web floating
api service hanzoai/api degraded
worker queue hanzoai/jobs missing
shop spa hanzoai/commerce
admin spa hanzoai/console
search service hanzoai/search
gateway service hanzoai/gateway
sql sql hanzoai/sql
kv kv hanzoai/kv
s3 s3 hanzoai/s3
cron function hanzoai/functions
mail service hanzoai/mail`,
		"tenant-zoo": `
zoo spa zooai/zoo
api service zooai/api
node service zooai/node zero
gym service zooai/gym
agents service zooai/agents
search service zooai/search
explorer explorer zooai/explorer
indexer indexer zooai/indexer
chat service zooai/chat
foundation spa zooai/foundation
zen llm zooai/zen
sql sql hanzoai/sql
kv kv hanzoai/kv
docs static zooai/docs`,
		"tenant-lux": `
explorer explorer luxfi/explorer
indexer indexer luxfi/indexer
bridge service luxfi/bridge
wallet spa luxfi/wallet
markets spa luxfi/markets
safe spa luxfi/safe
netrunner service luxfi/netrunner
node datastore luxfi/node
faucet service luxfi/faucet
dex service luxfi/dex
exchange spa luxfi/exchange
kms kms hanzoai/kms
sql sql hanzoai/sql
kv kv hanzoai/kv`,
	},
	"demo-eu": {
		"hanzo": `
iam iam hanzoai/iam
kms kms hanzoai/kms
console spa hanzoai/console
gateway service hanzoai/gateway
cloud service hanzoai/cloud
llm llm hanzoai/llm
chat service hanzoai/chat
search service hanzoai/search
commerce service hanzoai/commerce
id spa hanzoai/id
web spa hanzoai/web
vector service hanzoai/vector
sql sql hanzoai/sql
kv kv hanzoai/kv
s3 s3 hanzoai/s3
ingress ingress - ingress`,
		"tenant-zoo": `
zoo spa zooai/zoo
api service zooai/api
chat service zooai/chat
kv kv hanzoai/kv`,
	},
}

// clusterNames and namespaceOrder fix the iteration order (maps do not).
var (
	clusterNames   = []string{"demo", "demo-eu"}
	namespaceOrder = []string{"hanzo", "hanzo-mainnet", "hanzo-testnet", "hanzo-devnet", "tenant-acme", "tenant-zoo", "tenant-lux"}
)

// catalog parses catalogText in a fixed order.
func catalog() []catalogEntry {
	var out []catalogEntry
	for _, cl := range clusterNames {
		for _, ns := range namespaceOrder {
			text, ok := catalogText[cl][ns]
			if !ok {
				continue
			}
			for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
				f := strings.Fields(line)
				e := catalogEntry{cluster: cl, ns: ns, name: f[0], role: f[1], repo: f[2], kind: "App"}
				if e.role == "-" {
					e.role = ""
				}
				if e.repo == "-" {
					e.repo = ""
				}
				if len(f) > 3 {
					e.sc, e.fixed = scenarioNames[f[3]], true
				}
				if len(f) > 4 {
					e.kind = f[4]
				}
				out = append(out, e)
			}
		}
	}
	return out
}

// sized trims or extends the catalog to n Apps. Trimming keeps every
// special scenario; extending adds numbered copies of ordinary Apps.
func sized(all []catalogEntry, n int) []catalogEntry {
	if n <= 0 || n == len(all) {
		return all
	}
	if n < len(all) {
		var special, plain []catalogEntry
		for _, e := range all {
			if e.fixed && e.sc.special() {
				special = append(special, e)
			} else {
				plain = append(plain, e)
			}
		}
		keep := max(n-len(special), 0)
		out := append([]catalogEntry(nil), special...)
		for i := 0; i < keep; i++ { // spread over the namespaces, not the first ones only
			out = append(out, plain[i*len(plain)/keep])
		}
		return out
	}
	out := append([]catalogEntry(nil), all...)
	var plain []catalogEntry
	for _, e := range all {
		if !e.fixed {
			plain = append(plain, e)
		}
	}
	for i := 0; len(out) < n; i++ {
		e := plain[i%len(plain)]
		e.name = e.name + "-" + strconv.Itoa(2+i/len(plain))
		out = append(out, e)
	}
	return out
}
