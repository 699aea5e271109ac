package releasereader

import (
	"net/netip"
	"strings"
	"testing"
)

// The IANA special-purpose registries (IPv4 and IPv6), and addresses that
// carry an IPv4 address inside (NAT64, 6to4, Teredo) judged by what they
// carry: an App naming any of these is refused unless the host is listed;
// metadata and non-host addresses are refused even then.
func TestEgressSpecialPurposeRanges(t *testing.T) {
	p := egressPolicy{private: []string{"named.corp"}}
	const (
		public   = "public"
		internal = "internal" // refused unless named
		never    = "never"    // refused even when named
	)
	for _, c := range []struct{ ip, want, why string }{
		{"100.64.0.1", internal, "shared"},
		{"100.127.255.254", internal, "shared"},
		{"100.63.255.255", public, ""},
		{"100.128.0.1", public, ""},
		{"198.18.0.1", internal, "benchmarking"},
		{"198.19.255.1", internal, "benchmarking"},
		{"192.0.0.8", internal, "IETF"},
		{"192.0.2.7", internal, "documentation"},
		{"198.51.100.7", internal, "documentation"},
		{"203.0.113.7", internal, "documentation"},
		{"192.88.99.1", internal, "6to4 relay"},
		{"0.1.2.3", never, "this network"},
		{"240.0.0.1", never, "reserved"},
		{"255.255.255.255", never, "reserved"},
		{"224.0.0.251", never, "multicast"},
		{"fec0::1", internal, "site-local"},
		{"fe80::1%eth0", internal, "link-local"},
		{"fd00::1", internal, "private"},
		{"100::1", never, "discard"},
		{"2001:db8::1", internal, "documentation"},
		{"3fff::1", internal, "documentation"},
		{"2001:2::1", internal, "benchmarking"},
		{"2001:10::1", internal, "IETF"},
		{"5f00::1", internal, "SRv6"},
		{"::7f00:1", never, "reserved"},  // IPv4-compatible, deprecated
		{"4000::1", never, "reserved"},   // outside 2000::/3, unassigned
		{"2606:4700::1111", public, ""},  // global unicast
		{"2001:4:112::1", public, ""},    // AS112, globally reachable
		{"64:ff9b::808:808", public, ""}, // NAT64 of 8.8.8.8
		{"64:ff9b::a00:1", internal, "10.0.0.1"},
		{"64:ff9b::7f00:1", internal, "127.0.0.1"},
		{"64:ff9b::6440:1", internal, "100.64.0.1"},
		{"64:ff9b::a9fe:a9fe", never, "metadata"},
		{"64:ff9b:1::808:808", internal, "NAT64"}, // local-use prefix
		{"64:ff9b:1::a9fe:a9fe", never, "metadata"},
		{"64:ff9b:1:a9fe:a9:fe00::", never, "metadata"}, // the /48 layout
		{"2002:808:808::1", public, ""},                 // 6to4 of 8.8.8.8
		{"2002:a00:1::1", internal, "10.0.0.1"},
		{"2002:7f00:1::1", internal, "127.0.0.1"},
		{"2002:a9fe:a9fe::1", never, "metadata"},
		{"2001:0:4136:e378:8000:63bf:3fff:fdd2", internal, "Teredo"},
		{"2001:0:4136:e378:8000:63bf:5601:5601", never, "metadata"}, // client 169.254.169.254
		{"::ffff:100.64.0.1", internal, "shared"},
	} {
		ip := netip.MustParseAddr(c.ip)
		anon := p.checkAddr("evil.example", ip, false)
		named := p.checkAddr("named.corp", ip, false)
		var got string
		switch {
		case anon == "" && named == "":
			got = public
		case anon != "" && named == "":
			got = internal
		case anon != "" && named != "":
			got = never
		default:
			got = "allowed unnamed, refused named"
		}
		if got != c.want {
			t.Errorf("%s: %s (unnamed %q, named %q), want %s", c.ip, got, anon, named, c.want)
			continue
		}
		if c.why != "" && !strings.Contains(anon, c.why) {
			t.Errorf("%s: refused with %q, want it to say %q", c.ip, anon, c.why)
		}
	}
}
