package releasereader

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Registry reads are aimed by App specs, which tenants write: without a
// guard an App could make every viewer's machine request its cloud metadata
// endpoint or a service on its private network, with the viewer's docker
// credentials. The guard allows https to public addresses; addresses that
// are not globally reachable (loopback, private, link-local, CGNAT and the
// rest of the IANA special-purpose registries, NAT64/6to4/Teredo judged by
// the IPv4 address they carry; ipclass.go) only for hosts the configuration
// names; plain http only for named hosts and only to loopback; metadata and
// non-host addresses never. Addresses are checked as dialled, after DNS,
// so a name that resolves to an internal address is refused too.

// Limits of one registry exchange.
const (
	registryDialTimeout   = 10 * time.Second
	registryHeaderTimeout = 20 * time.Second
	registryMaxBody       = 4 << 20 // manifests and tag-list pages are far smaller
)

// NotAllowedError is a registry request the guard refused before any
// connection was made.
type NotAllowedError struct {
	Host, Why string
}

func (e *NotAllowedError) Error() string {
	return "registry host not allowed: " + e.Host + " " + e.Why
}

// egressPolicy is what the configuration allows beyond public https.
type egressPolicy struct {
	private  []string // hosts that may be on loopback, private or link-local addresses
	insecure []string // hosts read over plain http (loopback only); implies private
}

// named reports whether hostport ("host" or "host:port") is in list; an
// entry without a port names the host on any port.
func named(list []string, hostport string) bool {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = hostport, ""
	}
	host = strings.Trim(host, "[]")
	return slices.ContainsFunc(list, func(e string) bool {
		eh, ep, err := net.SplitHostPort(e)
		if err != nil {
			eh, ep = e, ""
		}
		return strings.EqualFold(strings.Trim(eh, "[]"), host) && (ep == "" || ep == port)
	})
}

var metadataAddrs = []netip.Addr{
	netip.MustParseAddr("169.254.169.254"), // AWS, GCP, Azure, ...
	netip.MustParseAddr("fd00:ec2::254"),   // AWS over IPv6
	netip.MustParseAddr("100.100.100.200"), // Alibaba Cloud
}

// checkAddr says why a connection for host to ip is refused ("" when not).
// Plain http is judged by the address as dialled: a NAT64 or 6to4 address
// carrying 127.0.0.1 is not this machine.
func (p egressPolicy) checkAddr(host string, ip netip.Addr, plainHTTP bool) string {
	class, why := classify(ip)
	switch {
	case class >= addrNever:
		return "(" + why + ")"
	case plainHTTP && !ip.Unmap().IsLoopback():
		return "(plain http is allowed only to loopback)"
	case class == addrInternal && !named(p.private, host) && !named(p.insecure, host):
		return "(" + why + "; list the host in the registry configuration to read it)"
	}
	return ""
}

type plainHTTPKey struct{}

// guardedTransport refuses what the policy does not allow and caps the
// size of answers.
type guardedTransport struct {
	policy egressPolicy
	next   http.RoundTripper
	// dialChecked is true when next dials through policy.dial, which checks
	// every resolved address; otherwise only literal addresses are checked
	// here (an injected test transport).
	dialChecked bool
}

func newGuardedTransport(base http.RoundTripper, p egressPolicy) *guardedTransport {
	g := &guardedTransport{policy: p, next: base}
	if t, ok := base.(*http.Transport); ok {
		t = t.Clone()
		t.Proxy = nil // a proxy would dial for us, past the address check
		t.DialContext = p.dial
		t.TLSHandshakeTimeout = registryDialTimeout
		t.ResponseHeaderTimeout = registryHeaderTimeout
		g.next, g.dialChecked = t, true
	}
	return g
}

func (g *guardedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	host := req.URL.Host
	plain := req.URL.Scheme == "http"
	if plain && !named(g.policy.insecure, host) {
		return nil, &NotAllowedError{Host: host, Why: "(plain http; registries are read over https)"}
	}
	if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		return nil, &NotAllowedError{Host: host, Why: "(scheme " + req.URL.Scheme + ")"}
	}
	if ip, err := netip.ParseAddr(strings.Trim(req.URL.Hostname(), "[]")); err == nil {
		if why := g.policy.checkAddr(host, ip, plain); why != "" {
			return nil, &NotAllowedError{Host: host, Why: why}
		}
	} else if !g.dialChecked && !plain {
		if why := g.policy.checkName(req.Context(), host, plain); why != "" {
			return nil, &NotAllowedError{Host: host, Why: why}
		}
	}
	req = req.WithContext(context.WithValue(req.Context(), plainHTTPKey{}, plain))
	resp, err := g.next.RoundTrip(req)
	if err != nil {
		var na *NotAllowedError
		if errors.As(err, &na) {
			return nil, na
		}
		return nil, err
	}
	resp.Body = &cappedBody{rc: resp.Body, left: registryMaxBody}
	return resp, nil
}

// dial connects like net.Dialer and checks each address it connects to.
func (p egressPolicy) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	plain, _ := ctx.Value(plainHTTPKey{}).(bool)
	d := net.Dialer{Timeout: registryDialTimeout, KeepAlive: 30 * time.Second,
		// Control runs after DNS, before connecting, for every address tried.
		Control: func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return err
			}
			if why := p.checkAddr(addr, ap.Addr(), plain); why != "" {
				return &NotAllowedError{Host: addr, Why: why}
			}
			return nil
		}}
	return d.DialContext(ctx, network, addr)
}

// checkName resolves host and checks every address (the weaker check used
// with an injected transport, which dials on its own).
func (p egressPolicy) checkName(ctx context.Context, hostport string, plain bool) string {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return ""
	}
	for _, a := range addrs {
		if why := p.checkAddr(hostport, a, plain); why != "" {
			return why
		}
	}
	return ""
}

// cappedBody fails a read past the limit instead of buffering without end.
type cappedBody struct {
	rc   io.ReadCloser
	left int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, fmt.Errorf("registry answer larger than %d bytes", registryMaxBody)
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }
