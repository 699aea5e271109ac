package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIAMTrustsByContextNameOrServerURL(t *testing.T) {
	t.Parallel()
	iam := IAM{Clusters: []string{"prod-eu", "https://k8s.example:6443", "https://api.example/"}}
	for _, tt := range []struct {
		context, server string
		want            bool
	}{
		{"prod-eu", "https://anything:1", true},
		{"prod-EU", "https://anything:1", false}, // context names are exact
		{"other", "https://k8s.example:6443", true},
		{"other", "https://K8S.example:6443/", true},
		{"other", "https://api.example:443", true},
		{"other", "http://k8s.example:6443", false},
		{"other", "https://k8s.example:6444", false},
		{"other", "https://evil.example/?https://k8s.example:6443", false},
	} {
		if got := iam.Trusts(tt.context, tt.server); got != tt.want {
			t.Errorf("Trusts(%q, %q) = %v, want %v", tt.context, tt.server, got, tt.want)
		}
	}
}

func TestIAMClustersMustBeHTTPS(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte("iam:\n  clusters: [prod, \"http://k8s.example\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err := Load(path, true, Checks{})
	if err == nil || !strings.Contains(err.Error(), "iam.clusters[1]") || !strings.Contains(err.Error(), "not https") {
		t.Errorf("err = %v, want iam.clusters[1] refused as not https", err)
	}
}
