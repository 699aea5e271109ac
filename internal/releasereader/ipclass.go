package releasereader

import (
	"net/netip"
	"slices"
)

// addrClass orders what the registry guard does with an address, most
// permissive first, so the stricter of two judgements is the larger.
type addrClass int

const (
	addrPublic   addrClass = iota
	addrInternal           // not globally reachable: only for hosts the configuration names
	addrNever              // not a host address: refused even for named hosts
	addrMetadata           // a cloud metadata endpoint: refused even for named hosts
)

// classicInternal is how loopback, private (RFC 1918, unique local) and
// link-local addresses are named in refusals.
const classicInternal = "loopback, private or link-local"

type special struct {
	prefix netip.Prefix
	class  addrClass
	name   string
}

func sp(prefix string, class addrClass, name string) special {
	return special{netip.MustParsePrefix(prefix), class, name}
}

// specials follow the IANA IPv4 and IPv6 Special-Purpose Address
// Registries (entries not globally reachable), plus multicast and the
// unassigned IPv6 space outside 2000::/3. The first match counts, so the
// globally reachable exceptions come before the blocks that hold them.
// Addresses that carry an IPv4 address (NAT64, 6to4, Teredo) are judged in
// classify by what they carry as well.
var specials = []special{
	sp("0.0.0.0/8", addrNever, `"this network"`),
	sp("10.0.0.0/8", addrInternal, classicInternal),
	sp("100.64.0.0/10", addrInternal, "shared (carrier-grade NAT, RFC 6598)"),
	sp("127.0.0.0/8", addrInternal, classicInternal),
	sp("169.254.0.0/16", addrInternal, classicInternal),
	sp("172.16.0.0/12", addrInternal, classicInternal),
	sp("192.0.0.0/24", addrInternal, "IETF protocol assignment"),
	sp("192.0.2.0/24", addrInternal, "documentation"),
	sp("192.88.99.0/24", addrInternal, "6to4 relay anycast"),
	sp("192.168.0.0/16", addrInternal, classicInternal),
	sp("198.18.0.0/15", addrInternal, "benchmarking"),
	sp("198.51.100.0/24", addrInternal, "documentation"),
	sp("203.0.113.0/24", addrInternal, "documentation"),
	sp("224.0.0.0/4", addrNever, "multicast"),
	sp("240.0.0.0/4", addrNever, "reserved"), // 255.255.255.255 included

	sp("::1/128", addrInternal, classicInternal),
	sp("::/128", addrNever, "unspecified"),
	sp("100::/64", addrNever, "discard-only"),
	sp("100:0:0:1::/64", addrNever, "dummy"),
	sp("2001:1::1/128", addrPublic, ""),
	sp("2001:1::2/128", addrPublic, ""),
	sp("2001:1::3/128", addrPublic, ""),
	sp("2001:3::/32", addrPublic, ""),
	sp("2001:4:112::/48", addrPublic, ""),
	sp("2001:20::/28", addrPublic, ""),
	sp("2001:30::/28", addrPublic, ""),
	sp("2001:2::/48", addrInternal, "benchmarking"),
	sp("2001::/23", addrInternal, "IETF protocol assignment"),
	sp("2001:db8::/32", addrInternal, "documentation"),
	sp("3fff::/20", addrInternal, "documentation"),
	sp("5f00::/16", addrInternal, "SRv6 SID"),
	sp("fc00::/7", addrInternal, classicInternal),
	sp("fe80::/10", addrInternal, classicInternal),
	sp("fec0::/10", addrInternal, "site-local"),
	sp("ff00::/8", addrNever, "multicast"),
}

var (
	nat64      = netip.MustParsePrefix("64:ff9b::/96")
	nat64Local = netip.MustParsePrefix("64:ff9b:1::/48")
	sixToFour  = netip.MustParsePrefix("2002::/16")
	teredo     = netip.MustParsePrefix("2001::/32")
	globalV6   = netip.MustParsePrefix("2000::/3")
)

// classify judges ip by the registries and, for an address that carries an
// IPv4 address, by that address too; why names the range (and what is
// carried) for the refusal.
func classify(ip netip.Addr) (addrClass, string) {
	ip = ip.WithZone("").Unmap() // a zoned address matches no prefix
	s := ip.String()
	if slices.Contains(metadataAddrs, ip) {
		return addrMetadata, s + " is a cloud metadata address"
	}
	if !ip.IsValid() {
		return addrNever, "not a host address"
	}
	b := ip.As16()
	v4 := func(i, j, k, l int) netip.Addr { return netip.AddrFrom4([4]byte{b[i], b[j], b[k], b[l]}) }
	switch {
	case nat64.Contains(ip):
		return carried(s, "NAT64", addrPublic, v4(12, 13, 14, 15))
	case nat64Local.Contains(ip):
		// Internal whatever it carries; the layout (RFC 6052 /96 or /48) is
		// the network's choice, so either one carrying metadata is refused.
		for _, a := range []netip.Addr{v4(12, 13, 14, 15), v4(6, 7, 9, 10)} {
			if c, w := classify(a); c == addrMetadata {
				return c, s + " is a local-use NAT64 address carrying " + a.String() + ": " + w
			}
		}
		return addrInternal, s + " is a local-use NAT64 address"
	case sixToFour.Contains(ip):
		return carried(s, "6to4", addrPublic, v4(2, 3, 4, 5))
	case teredo.Contains(ip): // server, then the client obfuscated with ones
		return carried(s, "Teredo", addrInternal, v4(4, 5, 6, 7),
			netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]}))
	}
	for _, e := range specials {
		if e.prefix.Contains(ip) {
			if e.class == addrPublic {
				return addrPublic, ""
			}
			if e.class == addrNever {
				return e.class, s + " is not a host address: " + e.name
			}
			return e.class, s + " is a " + e.name + " address"
		}
	}
	if ip.Is6() && !globalV6.Contains(ip) {
		return addrNever, s + " is not a host address: reserved"
	}
	return addrPublic, ""
}

// carried judges an address that carries IPv4 addresses: at least floor,
// and no less strict than the strictest address carried.
func carried(s, kind string, floor addrClass, inner ...netip.Addr) (addrClass, string) {
	class, why := floor, s+" is a "+kind+" address"
	for _, a := range inner {
		if c, w := classify(a); c > class {
			class, why = c, s+" is a "+kind+" address carrying "+a.String()+": "+w
		}
	}
	return class, why
}
