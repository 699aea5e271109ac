package kube

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// A member hung (SIGSTOP): Karmada's proxy serves its last objects, then
// answers 429 while it re-initializes its cache, for every member; the
// board says so as the proxy's degradation, and is live again once the
// member answers.
func TestKarmadaHungMemberDegradesTheProxy(t *testing.T) {
	fl := startKarmadaFleets(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	states := func() map[string]model.ClusterState {
		out := map[string]model.ClusterState{}
		for _, st := range fl.proxy.ClusterStates() {
			out[st.Name] = st
		}
		return out
	}
	waitFor := func(what string, ok func(model.ClusterState) bool) time.Duration {
		t.Helper()
		begin := time.Now()
		for {
			st := states()
			if ok(st["member1"]) && ok(st["member2"]) {
				return time.Since(begin)
			}
			select {
			case <-ctx.Done():
				t.Fatalf("%s: %+v", what, st)
			case <-fl.proxy.Changed():
			case <-time.After(200 * time.Millisecond):
			}
		}
	}
	resume := fl.members["member2"].FreezeAPIServer()
	took := waitFor("both members stale, the proxy named", func(st model.ClusterState) bool {
		return st.Phase != model.ConnLive && strings.Contains(st.Reason, "search proxy of Karmada (karmada) is degraded")
	})
	t.Logf("member2 hung: the proxy degraded after %s: %s", took.Round(time.Second), states()["member1"].Reason)
	resume()
	took = waitFor("both members live again", func(st model.ClusterState) bool { return st.Phase == model.ConnLive })
	t.Logf("member2 resumed: live again after %s", took.Round(time.Second))
}
