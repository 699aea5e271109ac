package model

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEnvRules(t *testing.T) {
	t.Parallel()
	for _, e := range Envs {
		if got, want := e.IsProduction(), e == EnvMain; got != want {
			t.Errorf("%s.IsProduction() = %v", e, got)
		}
		for _, ns := range e.Namespaces() {
			if EnvOf(ns) != e {
				t.Errorf("%s lists %s, but EnvOf(%s) = %q", e, ns, ns, EnvOf(ns))
			}
		}
	}
	if Env("").IsProduction() || Env("Main").IsProduction() {
		t.Error("an unknown env is production")
	}
	if !EnvOf(TenantNamespace("Acme")).IsProduction() || TenantNamespace("Acme") != "tenant-acme" {
		t.Errorf("tenant namespace of Acme = %q, env %q", TenantNamespace("Acme"), EnvOf(TenantNamespace("Acme")))
	}
	want := []string{"hanzo", "hanzo-mainnet", "hanzo-testnet", "hanzo-devnet"}
	if diff := cmp.Diff(want, PlatformNamespaces()); diff != "" {
		t.Errorf("platform namespaces (-want +got):\n%s", diff)
	}
	EnvMain.Namespaces()[0] = "changed"
	if EnvOf("hanzo") != EnvMain {
		t.Error("Namespaces hands out the table itself")
	}
	for s, ok := range map[string]bool{"main": true, "test": true, "dev": true, "": false, "prod": false, "MAIN": false} {
		if _, got := ParseEnv(s); got != ok {
			t.Errorf("ParseEnv(%q) ok = %v", s, got)
		}
	}
}
