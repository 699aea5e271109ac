package kube

import (
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
		applyCompression(cfg, tc.mode)
		if cfg.DisableCompression != tc.disabled {
			t.Errorf("%s (kubeconfig disable %v, mode %v): disabled %v, want %v", tc.host, tc.kubeconfig, tc.mode, cfg.DisableCompression, tc.disabled)
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
