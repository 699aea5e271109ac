package kube

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/internal/testing/karmadatest"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// testDirectAfter is how long the proxy fails before the tests' members
// with a context are read direct (DefaultDirectAfter is longer).
const testDirectAfter = 3 * time.Second

// proxiedActionsAgent is the user agent of the proxied fleet's clients for
// member1's actions.
const proxiedActionsAgent = "driftboard-proxied-actions"

// karmadaFleets is one fleet of two members read direct, and the same
// members read through a real Karmada's search proxy.
type karmadaFleets struct {
	karmada       *karmadatest.Karmada
	members       map[string]*testcluster.Cluster
	direct, proxy *Fleet
}

// startKarmadaFleets joins two members to Karmada (member1 with controllers
// and a kwok node, so its Deployments have ReplicaSets and status), seeds
// the same Apps in both (CD's Application lists member1's), and starts both fleets on one clock. member1
// has a direct context for actions; member2 is read through the proxy only.
func startKarmadaFleets(t *testing.T) karmadaFleets {
	t.Helper()
	k := karmadatest.Start(t)
	m1 := testcluster.Start(t, testcluster.Options{Controllers: true})
	m2 := testcluster.Start(t, testcluster.Options{})
	k.Join("member1", m1)
	k.Join("member2", m2)
	k.Cache("member1", "member2")
	ctx, stop := context.WithTimeout(context.Background(), 5*time.Minute) // a hung member's test runs ~2 minutes
	t.Cleanup(stop)
	for _, m := range []*testcluster.Cluster{m1, m2} {
		m.CreateNamespaces("hanzo", "hanzo-cd")
		for _, a := range []struct{ name, role, tag string }{{"web", "service", "v1"}, {"db", "sql", "v2"}, {"site", "spa", "v3"}} {
			if err := m.SeedApp(ctx, "hanzo", a.name, a.role, "ghcr.io/hanzoai/"+a.name, a.tag, 1); err != nil {
				t.Fatal(err)
			}
		}
	}
	// member2's namespace names its org: the rows read it from the labels.
	nsPatch := []byte(`{"metadata":{"labels":{"hanzo.ai/org":"acme"}}}`)
	if _, err := m2.AdminClient().CoreV1().Namespaces().Patch(ctx, "hanzo", types.MergePatchType, nsPatch, metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	// member1's Apps are managed by CD, member2's are not.
	if err := m1.PutUniverseCRs(ctx, "abc123", map[string]string{"web": "Synced", "db": "OutOfSync"}); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 3, 8, 0, 0, 0, time.UTC)
	opts := FleetOptions{Now: func() time.Time { return now }}
	clients := map[string]ClusterClients{}
	for name, m := range map[string]*testcluster.Cluster{"member1": m1, "member2": m2} {
		cfg := m.AdminConfig()
		cfg.UserAgent = "driftboard-direct-fleet"
		cc, err := NewClusterClients(name, cfg, ConnectOptions{})
		if err != nil {
			t.Fatal(err)
		}
		clients[name] = cc
	}
	// member1's clients for actions through Karmada, told apart in its audit
	// log from the direct fleet's.
	actionsCfg := m1.AdminConfig()
	actionsCfg.UserAgent = proxiedActionsAgent
	direct1, err := NewClusterClients("member1", actionsCfg, ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	proxied, err := ConnectKarmada(KarmadaSource{Name: "karmada", Config: k.Host().AdminConfig(),
		Members:     []KarmadaMember{{Cluster: "member1", Direct: &direct1}, {Cluster: "member2"}},
		DirectAfter: testDirectAfter}, ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fl := karmadaFleets{karmada: k, members: map[string]*testcluster.Cluster{"member1": m1, "member2": m2},
		direct: NewFleet(opts, clients["member1"], clients["member2"]), proxy: NewFleet(opts, proxied...)}
	for _, f := range []*Fleet{fl.direct, fl.proxy} {
		f.Start(ctx)
		wctx, cancel := context.WithTimeout(ctx, time.Minute)
		err := f.WaitSynced(wctx)
		cancel()
		if err != nil {
			t.Fatalf("WaitSynced: %v", err)
		}
	}
	return fl
}

// Every field of every row read through the proxy is the one read direct.
func TestKarmadaRowsEqualDirect(t *testing.T) {
	fl := startKarmadaFleets(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var diffs []string
	for {
		direct, proxy := fl.direct.Snapshot(), fl.proxy.Snapshot()
		diffs = rowDiffs(direct, proxy)
		if len(diffs) == 0 && len(direct.Rows()) == 6 {
			if r := findRow(direct, model.Key{Cluster: "member1", Namespace: "hanzo", Name: "web"}); r.Git.Application == "" {
				t.Fatalf("member1's web is not listed by CD's Application: %+v", r.Git)
			}
			if r := findRow(direct, model.Key{Cluster: "member2", Namespace: "hanzo", Name: "web"}); r.Org != "acme" {
				t.Fatalf("member2's web has org %q, want acme from its namespace's label", r.Org)
			}
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("rows through Karmada differ from direct (%d rows direct, %d through the proxy):\n%s",
				len(direct.Rows()), len(proxy.Rows()), strings.Join(diffs, "\n"))
		case <-fl.direct.Changed():
		case <-fl.proxy.Changed():
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// rowDiffs compares the snapshots row by row and field by field.
func rowDiffs(direct, proxy *store.Snapshot) []string {
	byKey := func(s *store.Snapshot) map[model.Key]*model.AppView {
		out := map[model.Key]*model.AppView{}
		for _, r := range s.Rows() {
			out[r.Key()] = r
		}
		return out
	}
	d, p := byKey(direct), byKey(proxy)
	var diffs []string
	for k, dr := range d {
		pr, ok := p[k]
		if !ok {
			diffs = append(diffs, fmt.Sprintf("%s: missing through the proxy", k))
			continue
		}
		dv, pv := reflect.ValueOf(*dr), reflect.ValueOf(*pr)
		for i := range dv.NumField() {
			if !reflect.DeepEqual(dv.Field(i).Interface(), pv.Field(i).Interface()) {
				diffs = append(diffs, fmt.Sprintf("%s: %s direct %+v, through the proxy %+v",
					k, dv.Type().Field(i).Name, dv.Field(i).Interface(), pv.Field(i).Interface()))
			}
		}
	}
	for k := range p {
		if _, ok := d[k]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s: only through the proxy", k))
		}
	}
	slices.Sort(diffs)
	return diffs
}

// A tag changed on a member reaches the row read through the proxy within
// a second.
func TestKarmadaChangeReachesRowWithinASecond(t *testing.T) {
	fl := startKarmadaFleets(t)
	k := model.Key{Cluster: "member2", Namespace: "hanzo", Name: "web"}
	waitRow(t, fl.proxy, k, "seeded", func(r *model.AppView) bool { return r != nil && r.DeclaredTag == "v1" })
	patch := []byte(`{"spec":{"image":{"tag":"v9"}}}`)
	begin := time.Now()
	_, err := fl.members["member2"].AdminDynamic().Resource(testcluster.AppsGVR).Namespace("hanzo").
		Patch(ctxT(t), "web", types.MergePatchType, patch, metav1.PatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	for {
		if r := findRow(fl.proxy.Snapshot(), k); r != nil && r.DeclaredTag == "v9" {
			t.Logf("the change reached the row through Karmada in %s", time.Since(begin).Round(time.Millisecond))
			return
		}
		select {
		case <-fl.proxy.Changed():
		case <-ctx.Done():
			t.Fatalf("the tag set on member2 did not reach the row through Karmada within 1s")
		}
	}
}
