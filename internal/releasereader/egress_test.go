package releasereader

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// recordingListener counts every connection made to it.
func recordingListener(t *testing.T) (addr string, conns *atomic.Int32) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	conns = &atomic.Int32{}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			c.Close()
		}
	}()
	return l.Addr().String(), conns
}

func TestRegistryHostsRefusedWithoutARequest(t *testing.T) {
	t.Setenv("DOCKER_CONFIG", t.TempDir())
	addr, conns := recordingListener(t)
	clock := newFakeClock()
	_, srv := newFakeGitHub(t, clock)
	lookup := func(image string, mod func(*Options)) string {
		t.Helper()
		r := newTestReader(t, srv.URL, clock, func(o *Options) {
			o.Registry = true
			o.Repos = []RepoMapping{{Image: strings.SplitN(image, "/", 2)[0] + "/*", GitHub: ""}}
			if mod != nil {
				mod(o)
			}
		})
		r.Track([]RepoTag{{image, "v1.0.0"}})
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		start := time.Now()
		r.refresh(ctx)
		if d := time.Since(start); mod == nil && d > 5*time.Second { // a refusal is immediate
			t.Errorf("%s: refusing took %v", image, d)
		}
		return r.Lookup(image, "v1.0.0").DigestNote
	}
	for _, c := range []struct {
		name, image, want string
		mod               func(*Options)
	}{
		{"loopback", addr + "/acme/api", "is a loopback, private or link-local address", nil},
		{"metadata", "169.254.169.254/acme/api", "169.254.169.254 is a cloud metadata address", nil},
		{"metadata v6", "[fd00:ec2::254]/acme/api", "is a cloud metadata address", nil},
		{"private", "10.1.2.3:5000/acme/api", "10.1.2.3 is a loopback, private or link-local address", nil},
	} {
		note := lookup(c.image, c.mod)
		if !strings.HasPrefix(note, "registry host not allowed: ") || !strings.Contains(note, c.want) {
			t.Errorf("%s: the row says %q, want registry host not allowed … %q", c.name, note, c.want)
		}
	}
	if n := conns.Load(); n != 0 {
		t.Fatalf("%d connections reached the recording listener", n)
	}
	// Plain http to a host not named for it: refused even when the host
	// may be private (https to it would be allowed).
	c := &http.Client{Transport: newGuardedTransport(http.DefaultTransport, egressPolicy{private: []string{addr}})}
	_, err := c.Get("http://" + addr + "/v2/")
	var na *NotAllowedError
	if !errors.As(err, &na) || !strings.Contains(na.Error(), "plain http; registries are read over https") {
		t.Errorf("plain http: got %v, want a NotAllowedError", err)
	}
	if n := conns.Load(); n != 0 {
		t.Fatalf("%d connections reached the recording listener", n)
	}
	// The listener does record: named as a local insecure registry, it is read.
	lookup(addr+"/acme/api", func(o *Options) { o.InsecureRegistries = []string{addr} })
	if conns.Load() == 0 {
		t.Fatal("the allowed registry was never dialled: the listener records nothing")
	}
}

// A name is checked as resolved, when dialled: "localhost" is not an
// address, but what it resolves to is loopback.
func TestRegistryNameResolvingInsideIsRefusedAtDial(t *testing.T) {
	addr, conns := recordingListener(t)
	_, port, _ := net.SplitHostPort(addr)
	c := &http.Client{Transport: newGuardedTransport(http.DefaultTransport, egressPolicy{})}
	_, err := c.Get("https://localhost:" + port + "/v2/")
	var na *NotAllowedError
	if !errors.As(err, &na) || !strings.Contains(na.Why, "loopback") {
		t.Fatalf("got %v, want a NotAllowedError for a loopback address", err)
	}
	if conns.Load() != 0 {
		t.Fatal("the refused dial connected")
	}
}

func TestEgressPolicyAddresses(t *testing.T) {
	p := egressPolicy{private: []string{"registry.corp", "mirror.corp:5000"}, insecure: []string{"localhost:5000"}}
	for _, c := range []struct {
		host, ip string
		plain    bool
		allowed  bool
	}{
		{"ghcr.io", "140.82.112.34", false, true},
		{"ghcr.io", "2606:50c0:8000::154", false, true},
		{"evil.example", "127.0.0.1", false, false},
		{"evil.example", "::1", false, false},
		{"evil.example", "10.0.0.1", false, false},
		{"evil.example", "172.16.5.4", false, false},
		{"evil.example", "192.168.1.1", false, false},
		{"evil.example", "fd12::1", false, false},
		{"evil.example", "169.254.10.1", false, false},
		{"evil.example", "fe80::1", false, false},
		{"evil.example", "0.0.0.0", false, false},
		{"evil.example", "::", false, false},
		{"evil.example", "::ffff:127.0.0.1", false, false},
		{"registry.corp", "10.0.0.1", false, true},
		{"registry.corp:443", "10.0.0.1", false, true},
		{"mirror.corp:5000", "192.168.1.1", false, true},
		{"mirror.corp:6000", "192.168.1.1", false, false},
		{"registry.corp", "169.254.169.254", false, false}, // metadata: never
		{"registry.corp", "100.100.100.200", false, false},
		{"localhost:5000", "127.0.0.1", true, true},
		{"localhost:5000", "10.0.0.1", true, false}, // plain http only to loopback
		{"ghcr.io", "140.82.112.34", true, false},
	} {
		why := p.checkAddr(c.host, netip.MustParseAddr(c.ip), c.plain)
		if (why == "") != c.allowed {
			t.Errorf("%s → %s (http %v): refused %q, want allowed %v", c.host, c.ip, c.plain, why, c.allowed)
		}
	}
}

func TestRegistryAnswerSizeIsCapped(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := make([]byte, 64<<10)
		for i := 0; i < (registryMaxBody/len(chunk))+2; i++ {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "https://")
	c := &http.Client{Transport: newGuardedTransport(srv.Client().Transport, egressPolicy{private: []string{host}})}
	resp, err := c.Get(srv.URL + "/v2/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err == nil || n > registryMaxBody {
		t.Fatalf("read %d bytes, err %v; want an error at %d", n, err, registryMaxBody)
	}
}
