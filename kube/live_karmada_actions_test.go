package kube

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// A restart of a row read through Karmada is made on the member, direct,
// as its context's identity; a member without a context refuses it, saying
// why.
func TestKarmadaRestartGoesDirectToTheMember(t *testing.T) {
	fl := startKarmadaFleets(t)
	ctx := ctxT(t)
	k1 := model.Key{Cluster: "member1", Namespace: "hanzo", Name: "web"}
	waitRow(t, fl.proxy, k1, "seeded", func(r *model.AppView) bool { return r != nil })
	if err := fl.proxy.Restart(ctx, k1); err != nil {
		t.Fatalf("restart of member1's web through Karmada: %v", err)
	}
	if n := patchesOf(t, fl.members["member1"], "web"); n != 1 {
		t.Errorf("member1's audit log has %d patches of deployment web by admin, want 1", n)
	}
	if n := patchesOf(t, fl.karmada.Host(), "web"); n != 0 {
		t.Errorf("Karmada's API server saw %d patches of deployment web, want none", n)
	}
	k2 := model.Key{Cluster: "member2", Namespace: "hanzo", Name: "web"}
	waitRow(t, fl.proxy, k2, "seeded", func(r *model.AppView) bool { return r != nil })
	d := fl.proxy.CheckRestart(ctx, k2)
	if d.Allowed || !strings.Contains(d.Reason, "no kubeconfig context of its own") {
		t.Errorf("restart of member2's web: allowed %v, %q; want refused for want of a context", d.Allowed, d.Reason)
	}
}

func patchesOf(t *testing.T, c *testcluster.Cluster, name string) int {
	t.Helper()
	events, err := c.AuditEvents()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range events {
		if e.Verb == "patch" && e.ObjectRef != nil && e.ObjectRef.Resource == "deployments" && e.ObjectRef.Name == name &&
			e.User.Username == "admin" && e.Stage == "ResponseComplete" {
			n++
		}
	}
	return n
}

// A member Karmada says is not Ready turns stale alone, with Karmada's
// reason, and live again when it is Ready.
func TestKarmadaMemberNotReadyTurnsStale(t *testing.T) {
	fl := startKarmadaFleets(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := fl.karmada.SetReady(ctx, "member2", false, "probe timed out"); err != nil {
		t.Fatal(err)
	}
	state := func(name string) model.ClusterState {
		for _, st := range fl.proxy.ClusterStates() {
			if st.Name == name {
				return st
			}
		}
		return model.ClusterState{}
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for !ok() {
			select {
			case <-ctx.Done():
				t.Fatalf("%s: member1 %+v, member2 %+v", what, state("member1"), state("member2"))
			case <-fl.proxy.Changed():
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	waitFor("member2 stale with Karmada's reason", func() bool {
		st := state("member2")
		return st.Phase != model.ConnLive && strings.Contains(st.Reason, "probe timed out")
	})
	row := findRow(fl.proxy.Snapshot(), model.Key{Cluster: "member2", Namespace: "hanzo", Name: "web"})
	if row == nil || !row.Offline {
		t.Errorf("member2's row while it is not Ready: %+v, want it stale", row)
	}
	if st := state("member1"); st.Phase != model.ConnLive {
		t.Errorf("member1 while member2 is not Ready: %+v, want live", st)
	}
	if err := fl.karmada.SetReady(ctx, "member2", true, "back"); err != nil {
		t.Fatal(err)
	}
	waitFor("member2 live again", func() bool { return state("member2").Phase == model.ConnLive })
}

// The search proxy down: a member without a context of its own turns
// stale, the proxy named as the cause; one with a context is read direct
// after testDirectAfter, live, and says so, as does a board started while
// the proxy is down. Once it serves, every member is read through it again.
func TestKarmadaProxyDownMembersReadDirect(t *testing.T) {
	fl := startKarmadaFleets(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const degraded, direct = "search proxy of Karmada (karmada) is degraded", "read direct, as its context's identity"
	readDirect := func(st model.ClusterState) bool {
		return slices.ContainsFunc(st.Notices, func(n string) bool { return strings.Contains(n, direct) })
	}
	waitFor := func(what string, f *Fleet, ok1, ok2 func(model.ClusterState) bool) {
		t.Helper()
		for {
			st1, st2 := clusterState(f, "member1"), clusterState(f, "member2")
			if ok1(st1) && ok2(st2) {
				return
			}
			select {
			case <-ctx.Done():
				t.Fatalf("%s:\nmember1 %+v\nmember2 %+v", what, st1, st2)
			case <-f.Changed():
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	liveDirect := func(st model.ClusterState) bool { return st.Phase == model.ConnLive && readDirect(st) }
	staleForTheProxy := func(st model.ClusterState) bool {
		return st.Phase != model.ConnLive && strings.Contains(st.Reason, degraded) && !readDirect(st)
	}
	liveThroughTheProxy := func(st model.ClusterState) bool { return st.Phase == model.ConnLive && !readDirect(st) }

	fl.karmada.StopSearch()
	waitFor("member1 read direct, member2 stale for the proxy", fl.proxy, liveDirect, staleForTheProxy)
	setTag(t, fl.members["member1"], "web", "v7")
	waitRow(t, fl.proxy, model.Key{Cluster: "member1", Namespace: "hanzo", Name: "web"}, "member1's change read direct",
		func(r *model.AppView) bool { return r != nil && r.DeclaredTag == "v7" })

	late := fl.proxyFleet(t, testDirectAfter, false, "member1") // started while the proxy is down
	waitFor("a board started while the proxy is down reads member1 direct", late, liveDirect, staleForTheProxy)
	waitRow(t, late, model.Key{Cluster: "member1", Namespace: "hanzo", Name: "web"}, "member1's rows read direct",
		func(r *model.AppView) bool { return r != nil && r.DeclaredTag == "v7" })

	fl.karmada.StartSearch()
	for _, f := range []*Fleet{fl.proxy, late} {
		waitFor("both members live through the proxy again", f, liveThroughTheProxy, liveThroughTheProxy)
		waitRow(t, f, model.Key{Cluster: "member2", Namespace: "hanzo", Name: "web"}, "member2's rows through the proxy",
			func(r *model.AppView) bool { return r != nil && r.DeclaredTag == "v1" })
	}
}

// A member removed from Karmada: its rows go, its line says why.
func TestKarmadaMemberRemovedRowsGo(t *testing.T) {
	fl := startKarmadaFleets(t)
	k2 := model.Key{Cluster: "member2", Namespace: "hanzo", Name: "web"}
	waitRow(t, fl.proxy, k2, "seeded", func(r *model.AppView) bool { return r != nil })
	if err := fl.karmada.Remove(ctxT(t), "member2"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for {
		snap := fl.proxy.Snapshot()
		var st model.ClusterState
		for _, c := range fl.proxy.ClusterStates() {
			if c.Name == "member2" {
				st = c
			}
		}
		if findRow(snap, k2) == nil && strings.Contains(st.Reason, "no longer a member of Karmada") {
			if findRow(snap, model.Key{Cluster: "member1", Namespace: "hanzo", Name: "web"}) == nil {
				t.Fatal("member1's rows went with member2's")
			}
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("member2 removed: row %v, state %+v", findRow(snap, k2) != nil, st)
		case <-fl.proxy.Changed():
		case <-time.After(100 * time.Millisecond):
		}
	}
}
