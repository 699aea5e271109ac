package kube

import (
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
		{"https://127.0.0.1:6443", false, CompressionAuto, false},
		{"https://api.example.com", false, CompressionAuto, false},
		{"https://api.example.com", true, CompressionAuto, true},
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
