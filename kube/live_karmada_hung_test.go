package kube

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// A member hung (SIGSTOP: its connections stall): Karmada's proxy serves
// its last objects, then answers 429 for every member while it
// re-initializes its cache. Members with a context of their own are then
// read direct: they stay live, and the hung member turns stale alone. A
// board told to wait shows every member stale, the proxy named. Once the
// member answers, all of them are live and read through the proxy again.
func TestKarmadaHungMemberStaleAloneWhileOthersReadDirect(t *testing.T) {
	fl := startKarmadaFleets(t)
	both := fl.proxyFleet(t, testDirectAfter, true, "member1", "member2") // every member with a context
	waiting := fl.proxyFleet(t, -1, true, "member1")                      // never read direct
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	const degraded, direct, unanswered = "search proxy of Karmada (karmada) is degraded", "read direct, as its context's identity", "has not answered yet"
	type want struct {
		f               *Fleet
		member, name    string
		live            bool
		reason, noticed string // the reason holds one of reason's "|"-separated texts
	}
	waitAll := func(what string, wants ...want) time.Duration {
		t.Helper()
		begin := time.Now()
		for {
			var off []string
			for _, w := range wants {
				st := clusterState(w.f, w.member)
				noted := slices.ContainsFunc(st.Notices, func(n string) bool { return w.noticed != "" && strings.Contains(n, w.noticed) })
				anyDirect := slices.ContainsFunc(st.Notices, func(n string) bool { return strings.Contains(n, direct) })
				if (st.Phase == model.ConnLive) != w.live || !slices.ContainsFunc(strings.Split(w.reason, "|"), func(r string) bool { return strings.Contains(st.Reason, r) }) ||
					(w.noticed != "" && !noted) || (w.noticed == "" && anyDirect) {
					off = append(off, fmt.Sprintf("%s %s: %s %q %q", w.name, w.member, st.Phase, st.Reason, st.Notices))
				}
			}
			if len(off) == 0 {
				return time.Since(begin)
			}
			select {
			case <-ctx.Done():
				t.Fatalf("%s:\n%s", what, strings.Join(off, "\n"))
			case <-time.After(200 * time.Millisecond):
			}
		}
	}
	// Read direct, the hung member is stale for its own silence: not yet
	// answered, or a call to it that timed out.
	hung := unanswered + "|" + strings.TrimPrefix(fl.members["member2"].AdminConfig().Host, "https://")
	resume := fl.members["member2"].FreezeAPIServer()
	took := waitAll("member2 hung: stale alone where the others are read direct",
		want{fl.proxy, "member1", "one context", true, "", direct},
		want{fl.proxy, "member2", "one context", false, degraded, ""},
		want{both, "member1", "both contexts", true, "", direct},
		want{both, "member2", "both contexts", false, hung, direct},
		want{waiting, "member1", "waiting", false, degraded, ""},
		want{waiting, "member2", "waiting", false, degraded, ""})
	t.Logf("member2 hung: member1 read direct, member2 stale alone, after %s", took.Round(time.Second))

	// Read direct is read live: member1's change reaches its row.
	setTag(t, fl.members["member1"], "web", "v7")
	waitRow(t, fl.proxy, model.Key{Cluster: "member1", Namespace: "hanzo", Name: "web"}, "member1's change read direct",
		func(r *model.AppView) bool { return r != nil && r.DeclaredTag == "v7" })

	resume()
	took = waitAll("member2 back: every member live, read through the proxy again",
		want{fl.proxy, "member1", "one context", true, "", ""},
		want{fl.proxy, "member2", "one context", true, "", ""},
		want{both, "member1", "both contexts", true, "", ""},
		want{both, "member2", "both contexts", true, "", ""},
		want{waiting, "member1", "waiting", true, "", ""},
		want{waiting, "member2", "waiting", true, "", ""})
	t.Logf("member2 resumed: every member live through the proxy after %s", took.Round(time.Second))
	setTag(t, fl.members["member2"], "web", "v8")
	for _, f := range []*Fleet{fl.proxy, both, waiting} {
		waitRow(t, f, model.Key{Cluster: "member2", Namespace: "hanzo", Name: "web"}, "member2's change through the proxy",
			func(r *model.AppView) bool { return r != nil && r.DeclaredTag == "v8" })
	}
}

// proxyFleet reads fl's members through Karmada, those named with their own
// context, read direct after the proxy fails for directAfter; synced waits
// for its first sync.
func (fl karmadaFleets) proxyFleet(t *testing.T, directAfter time.Duration, synced bool, withContext ...string) *Fleet {
	t.Helper()
	var members []KarmadaMember
	for _, name := range []string{"member1", "member2"} {
		m := KarmadaMember{Cluster: name}
		if slices.Contains(withContext, name) {
			cc, err := NewClusterClients(name, fl.members[name].AdminConfig(), ConnectOptions{})
			if err != nil {
				t.Fatal(err)
			}
			m.Direct = &cc
		}
		members = append(members, m)
	}
	proxied, err := ConnectKarmada(KarmadaSource{Name: "karmada", Config: fl.karmada.Host().AdminConfig(),
		Members: members, DirectAfter: directAfter}, ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f := NewFleet(FleetOptions{}, proxied...)
	ctx, stop := context.WithTimeout(context.Background(), 5*time.Minute) // a hung member's test runs ~2 minutes
	t.Cleanup(stop)
	f.Start(ctx)
	if !synced {
		return f
	}
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := f.WaitSynced(wctx); err != nil {
		t.Fatalf("WaitSynced: %v", err)
	}
	return f
}

func clusterState(f *Fleet, name string) model.ClusterState {
	for _, st := range f.ClusterStates() {
		if st.Name == name {
			return st
		}
	}
	return model.ClusterState{}
}

func setTag(t *testing.T, m *testcluster.Cluster, app, tag string) {
	t.Helper()
	patch := []byte(`{"spec":{"image":{"tag":"` + tag + `"}}}`)
	if _, err := m.AdminDynamic().Resource(testcluster.AppsGVR).Namespace("hanzo").
		Patch(ctxT(t), app, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
}
