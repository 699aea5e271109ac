package kube

import (
	"context"
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

// The search proxy down: every member read through it turns stale, the
// proxy named as the cause; live again once it serves.
func TestKarmadaProxyDownSaidAsItsDegradation(t *testing.T) {
	fl := startKarmadaFleets(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	states := func() map[string]model.ClusterState {
		out := map[string]model.ClusterState{}
		for _, st := range fl.proxy.ClusterStates() {
			out[st.Name] = st
		}
		return out
	}
	waitFor := func(what string, ok func(model.ClusterState) bool) {
		t.Helper()
		for {
			st := states()
			if ok(st["member1"]) && ok(st["member2"]) {
				return
			}
			select {
			case <-ctx.Done():
				t.Fatalf("%s: %+v", what, st)
			case <-fl.proxy.Changed():
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	fl.karmada.StopSearch()
	waitFor("both members stale, the proxy named", func(st model.ClusterState) bool {
		return st.Phase != model.ConnLive && strings.Contains(st.Reason, "search proxy of Karmada (karmada) is degraded")
	})
	fl.karmada.StartSearch()
	waitFor("both members live again", func(st model.ClusterState) bool { return st.Phase == model.ConnLive })
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
