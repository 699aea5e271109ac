package kube

import (
	"net"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/rest"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// TestClosedPortSaysItRetries: against a loopback port nothing listens on,
// the cluster's state is the setup loop's own: unreachable, which attempt
// failed, when the next begins (the backoff doubling), and the last error,
// not a "failed" that reads as final.
func TestClosedPortSaysItRetries(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	f := startFleetNoWait(t, &rest.Config{Host: "https://" + addr, TLSClientConfig: rest.TLSClientConfig{Insecure: true}})

	first := waitCluster(t, f, "the first attempt failed", func(c model.ClusterState, _ *store.Snapshot) bool { return c.Attempt >= 1 })
	st := first.Clusters[0]
	if st.Phase != model.ConnFailed || st.Attempt != 1 || !st.Unreachable || !strings.Contains(st.Reason, "connection refused") {
		t.Fatalf("after one attempt: %+v; want failed, attempt 1, unreachable, connection refused", st)
	}
	if wait := st.RetryAt.Sub(st.Since); wait < 900*time.Millisecond || wait > 1100*time.Millisecond {
		t.Errorf("next try %v after the failure; want the first backoff, 1s", wait)
	}
	if w := st.FailedWords(st.Since); w != "unreachable — retrying (attempt 1, next in 1s): "+st.Reason {
		t.Errorf("words: %q", w)
	}
	second := waitCluster(t, f, "the second attempt failed", func(c model.ClusterState, _ *store.Snapshot) bool { return c.Attempt >= 2 })
	st2 := second.Clusters[0]
	if st2.Attempt != 2 || !st2.RetryAt.After(st.RetryAt) {
		t.Fatalf("after two attempts: %+v", st2)
	}
	if wait := st2.RetryAt.Sub(st2.Since); wait < 1900*time.Millisecond {
		t.Errorf("next try %v after the second failure; want the doubled backoff, 2s", wait)
	}
}

// TestRefusingServerIsNotUnreachable: a real API server that answers 401
// is retried too, but its state does not say unreachable.
func TestRefusingServerIsNotUnreachable(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	cfg := rest.AnonymousClientConfig(c.AdminConfig())
	cfg.BearerToken = "not-a-token"
	f := startFleetNoWait(t, cfg)
	s := waitCluster(t, f, "the first attempt failed", func(c model.ClusterState, _ *store.Snapshot) bool { return c.Attempt >= 1 })
	st := s.Clusters[0]
	if st.Phase != model.ConnFailed || st.Unreachable || !strings.Contains(st.Reason, "nauthorized") {
		t.Fatalf("state: %+v; want failed, reachable, unauthorized", st)
	}
	if w := st.FailedWords(st.RetryAt); !strings.HasPrefix(w, "failed — retrying (attempt 1, next now): ") {
		t.Errorf("words: %q", w)
	}
}
