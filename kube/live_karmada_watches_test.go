package kube

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/testing/karmadatest"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// The fleet read through Karmada opens one list and one watch per kind for
// all its members, on Karmada's proxy; it lists and watches nothing on the
// members themselves.
func TestKarmadaOneWatchPerKindForTheFleet(t *testing.T) {
	fl := startKarmadaFleets(t)
	time.Sleep(2 * time.Second) // the audit log is written as requests end or start streaming
	for name, m := range fl.members {
		if reads := auditReads(t, m, func(e testcluster.AuditEvent) bool { return e.UserAgent == proxiedActionsAgent }); len(reads) > 0 {
			t.Errorf("the fleet read through Karmada read %s directly: %v", name, reads)
		}
	}
	counts := proxyReads(t, fl.karmada.Host())
	want := []string{"apps", "applications", "deployments", "namespaces", "replicasets", "statefulsets"}
	for _, what := range want {
		for _, verb := range []string{"list", "watch"} {
			if n := counts[verb+" "+what]; n != 1 {
				t.Errorf("%s %s through the proxy: %d requests, want 1 for the whole fleet", verb, what, n)
			}
		}
	}
	if len(counts) != 2*len(want) {
		keys := make([]string, 0, len(counts))
		for k := range counts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		t.Errorf("requests through the proxy: %v, want a list and a watch of each of %v", keys, want)
	}
}

// auditReads are the list and watch requests (as "verb resource", one per
// request) the cluster's audit log holds of the events keep selects.
func auditReads(t *testing.T, c *testcluster.Cluster, keep func(testcluster.AuditEvent) bool) []string {
	t.Helper()
	events, err := c.AuditEvents()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var out []string
	for _, e := range events {
		if (e.Verb != "list" && e.Verb != "watch") || e.ObjectRef == nil || !keep(e) || seen[e.AuditID] {
			continue
		}
		seen[e.AuditID] = true
		out = append(out, e.Verb+" "+e.ObjectRef.Resource)
	}
	return out
}

// proxyReads counts the board's requests through the proxy, as "verb
// resource": the aggregator audits them as proxying/proxy gets, so the
// verb and the resource are read from the URI.
func proxyReads(t *testing.T, host *testcluster.Cluster) map[string]int {
	t.Helper()
	events, err := host.AuditEvents()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	counts := map[string]int{}
	for _, e := range events {
		rest, ok := strings.CutPrefix(e.RequestURI, karmadatest.ProxyPath+"/")
		if !ok || !strings.HasPrefix(e.UserAgent, "driftboard") || seen[e.AuditID] {
			continue
		}
		seen[e.AuditID] = true
		path, query, _ := strings.Cut(rest, "?")
		verb := "list"
		if strings.Contains("&"+query+"&", "&watch=true&") {
			verb = "watch"
		}
		counts[verb+" "+path[strings.LastIndex(path, "/")+1:]]++
	}
	return counts
}
