package kube

import (
	"fmt"
	"net"
	"net/url"
	"strings"

	"k8s.io/client-go/rest"
)

// Compression chooses whether responses are asked for gzipped, like
// kubectl's --disable-compression but with a default that looks at where
// the server is.
type Compression int

const (
	// CompressionAuto: off for an API server on this machine (loopback),
	// where gzip saves no transfer and costs both ends CPU; on elsewhere,
	// unless the kubeconfig's cluster says disable-compression.
	CompressionAuto Compression = iota
	CompressionOn
	CompressionOff
)

func (c Compression) String() string {
	switch c {
	case CompressionOn:
		return "on"
	case CompressionOff:
		return "off"
	}
	return "auto"
}

// ParseCompression reads the --compression flag's value.
func ParseCompression(s string) (Compression, error) {
	switch s {
	case "", "auto":
		return CompressionAuto, nil
	case "on":
		return CompressionOn, nil
	case "off":
		return CompressionOff, nil
	}
	return CompressionAuto, fmt.Errorf("must be auto, on or off, not %q", s)
}

// applyCompression sets cfg.DisableCompression for mode and says why.
// Measured at 10,000 Apps + 10,000 Deployments on a loopback API server
// (four alternating starts each): without gzip the API server used 2.4–2.9 s
// of CPU against 3.6–4.1 s, the board 1.7–2.1 s against 1.4–1.7 s (seven
// times the bytes to read), all on the same cores.
func applyCompression(cfg *rest.Config, mode Compression) (why string) {
	switch {
	case mode == CompressionOn:
		cfg.DisableCompression = false
		return "gzip: --compression=on"
	case mode == CompressionOff:
		cfg.DisableCompression = true
		return "no gzip: --compression=off"
	case cfg.DisableCompression:
		return "no gzip: the kubeconfig says disable-compression"
	case !onThisMachine(cfg):
		return "gzip: the API server is not on this machine (or is reached through a tunnel or proxy)"
	}
	cfg.DisableCompression = true
	return "no gzip: the API server is on this machine (loopback), where gzip saves no transfer"
}

// onThisMachine reports whether the API server answers on this machine: its
// address is loopback (or unspecified, which connects here: k3d writes
// 0.0.0.0) or "localhost", and nothing says the bytes travel further. A
// loopback address with a TLS server name of its own or a proxy is the usual
// shape of a tunnel to a remote cluster (ssh -L, tsh, a bastion), so that
// keeps gzip; so may a plain ssh -L, which --compression=on is for.
func onThisMachine(cfg *rest.Config) bool {
	if cfg.TLSClientConfig.ServerName != "" || cfg.Proxy != nil {
		return false
	}
	return loopbackServer(cfg.Host)
}

// loopbackServer reports whether the server URL names this machine.
func loopbackServer(host string) bool {
	u, err := url.Parse(host)
	if err != nil || u.Host == "" {
		u, err = url.Parse("https://" + host) // client-go accepts a bare host:port
		if err != nil {
			return false
		}
	}
	name := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		return true
	}
	ip := net.ParseIP(name)
	return ip != nil && (ip.IsLoopback() || ip.IsUnspecified())
}
