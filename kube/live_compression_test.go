package kube

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/client-go/rest"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// gzipCounter counts the responses the transport below it un-gzipped.
type gzipCounter struct {
	next              http.RoundTripper
	responses, gzNext *atomic.Int64
}

func (g gzipCounter) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := g.next.RoundTrip(req)
	if err == nil {
		g.responses.Add(1)
		if resp.Uncompressed { // the transport asked for gzip and got it
			g.gzNext.Add(1)
		}
	}
	return resp, err
}

// A real API server: by default (and with --compression=on) the board asks
// for gzip, as kubectl does, and the server gzips; --compression=off asks
// for plain bytes and gets them.
func TestLiveCompressionFollowsWhereTheServerIs(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "iam", "iam", "v1.0.0", 2)
	for i, tc := range []struct {
		mode    Compression
		gzipped bool
	}{{CompressionAuto, true}, {CompressionOff, false}, {CompressionOn, true}} {
		t.Run(fmt.Sprint(tc.mode), func(t *testing.T) {
			var responses, gzipped atomic.Int64
			cfg := rest.CopyConfig(c.AdminConfig())
			cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper {
				return gzipCounter{next: rt, responses: &responses, gzNext: &gzipped}
			}
			cc, err := NewClusterClients(testClusterName, cfg, ConnectOptions{Compression: tc.mode})
			if err != nil {
				t.Fatal(err)
			}
			f := NewFleet(FleetOptions{Principal: principal(superAdmin)}, cc)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			f.Start(ctx)
			if err := f.WaitSynced(ctx); err != nil {
				t.Fatalf("WaitSynced: %v", err)
			}
			tag := fmt.Sprintf("v1.1.%d", i)
			patchApp(t, c, "hanzo", "iam", fmt.Sprintf(`{"spec":{"image":{"tag":%q}}}`, tag))
			waitRow(t, f, key("hanzo", "iam"), "the patched tag", func(r *model.AppView) bool { return r != nil && r.DeclaredTag == tag })
			if responses.Load() == 0 {
				t.Fatal("no response went through the transport")
			}
			if got := gzipped.Load() > 0; got != tc.gzipped {
				t.Errorf("%v: %d of %d responses gzipped, want gzip %v", tc.mode, gzipped.Load(), responses.Load(), tc.gzipped)
			}
		})
	}
}
