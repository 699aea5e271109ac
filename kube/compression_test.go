package kube

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"k8s.io/client-go/rest"
)

func TestApplyCompression(t *testing.T) {
	for _, tc := range []struct {
		host       string
		kubeconfig bool // the kubeconfig's disable-compression
		mode       Compression
		disabled   bool
	}{
		{"https://0.0.0.0:6443", false, CompressionAuto, true}, // k3d's kubeconfig
		{"https://[::]:6443", false, CompressionAuto, true},
		{"https://localhost.:6443", false, CompressionAuto, true},
		{"https://127.0.0.1:6443", false, CompressionAuto, true},
		{"https://127.9.8.7:6443", false, CompressionAuto, true},
		{"https://[::1]:6443", false, CompressionAuto, true},
		{"https://localhost:6443", false, CompressionAuto, true},
		{"https://LocalHost", false, CompressionAuto, true},
		{"https://kind.localhost:6443", false, CompressionAuto, true},
		{"127.0.0.1:6443", false, CompressionAuto, true}, // client-go takes a bare host:port
		{"https://10.0.0.1:6443", false, CompressionAuto, false},
		{"https://api.example.com", false, CompressionAuto, false},
		{"https://127.0.0.1.nip.io", false, CompressionAuto, false},
		{"https://localhost.example.com", false, CompressionAuto, false},
		{"https://api.example.com", true, CompressionAuto, true},
		{"https://127.0.0.1:6443", false, CompressionOn, false},
		{"https://127.0.0.1:6443", true, CompressionOn, false},
		{"https://api.example.com", false, CompressionOff, true},
	} {
		cfg := &rest.Config{Host: tc.host, DisableCompression: tc.kubeconfig}
		why := applyCompression(cfg, tc.mode)
		if cfg.DisableCompression != tc.disabled || strings.HasPrefix(why, "gzip") == tc.disabled {
			t.Errorf("%s (kubeconfig disable %v, mode %v): disabled %v (%q), want %v", tc.host, tc.kubeconfig, tc.mode, cfg.DisableCompression, why, tc.disabled)
		}
	}
}

// A loopback address that is a tunnel's end (a TLS server name of its own,
// a proxy) keeps gzip in auto: the bytes travel further.
func TestApplyCompressionKeepsGzipThroughATunnel(t *testing.T) {
	tunnel := &rest.Config{Host: "https://127.0.0.1:6443", TLSClientConfig: rest.TLSClientConfig{ServerName: "api.prod.example.com"}}
	proxied := &rest.Config{Host: "https://localhost:6443", Proxy: func(*http.Request) (*url.URL, error) { return url.Parse("http://bastion:3128") }}
	for _, cfg := range []*rest.Config{tunnel, proxied} {
		if why := applyCompression(cfg, CompressionAuto); cfg.DisableCompression {
			t.Errorf("%s: gzip off (%s)", cfg.Host, why)
		}
	}
}

func TestParseCompression(t *testing.T) {
	for in, want := range map[string]Compression{"": CompressionAuto, "auto": CompressionAuto, "on": CompressionOn, "off": CompressionOff} {
		if got, err := ParseCompression(in); err != nil || got != want {
			t.Errorf("ParseCompression(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseCompression("gzip"); err == nil {
		t.Error(`ParseCompression("gzip"): no error`)
	}
}
