package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIAMTrustsByContextNameOrServerURL(t *testing.T) {
	t.Parallel()
	iam := IAM{Clusters: []string{"prod-eu", "https://k8s.example:6443", "https://api.example/",
		"staging=https://k8s.staging.example:6443", "dev"}, OneRun: []string{"dev"}}
	for _, tt := range []struct {
		context, server string
		want            bool
	}{
		// A bare name from the file follows no server; on the command line
		// (OneRun) it is trusted for that run.
		{"prod-eu", "https://anything:1", false},
		{"dev", "https://anything:1", true},
		{"staging", "https://k8s.staging.example:6443", true},
		{"staging", "https://K8S.staging.example:6443/", true},
		{"staging", "https://evil.example:6443", false},
		{"staging", "http://k8s.staging.example:6443", false},
		{"other", "https://k8s.staging.example:6443", false}, // a pin is not a URL entry
		{"prod-EU", "https://anything:1", false},             // context names are exact
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

// A context named but not trusted says why and what to write.
func TestIAMTrustSaysWhyANamedContextIsNot(t *testing.T) {
	t.Parallel()
	iam := IAM{Clusters: []string{"prod", "staging=https://k8s.staging.example:6443"}}
	if ok, why := iam.Trust("prod", "https://10.0.0.1:6443"); ok || !strings.Contains(why, "pin it: prod=https://10.0.0.1:6443") {
		t.Errorf("bare name: %v, %q", ok, why)
	}
	if ok, why := iam.Trust("staging", "https://evil.example"); ok || !strings.Contains(why, "pins context staging to https://k8s.staging.example:6443, but the kubeconfig gives it https://evil.example") {
		t.Errorf("pinned elsewhere: %v, %q", ok, why)
	}
	if ok, why := iam.Trust("other", "https://evil.example"); ok || why != "" {
		t.Errorf("an unnamed context: %v, %q", ok, why)
	}
	for entry, ok := range map[string]bool{"prod=https://k8s.example:6443": true, "prod=http://k8s.example": false,
		"prod": true, "=https://k8s.example": false, " prod =https://k8s.example": false} {
		if err := CheckIAMCluster(entry); (err == nil) != ok {
			t.Errorf("CheckIAMCluster(%q) = %v, want ok %v", entry, err, ok)
		}
	}
}
