package config

import (
	"strings"
	"testing"
)

func TestPromoteFilesAndBudgets(t *testing.T) {
	t.Parallel()
	const good = `promote:
  files:
    hanzo/gateway: {repo: hanzoai/universe, path: infra/k8s/operator/crs/gateway-v1.yaml, branch: main}
    gateway: {repo: hanzoai/universe, path: infra/k8s/operator/crs/gateway.yaml}
  budgets: {review: 48h}
`
	c, err := Parse("c.yaml", []byte(good), testChecks)
	if err != nil {
		t.Fatal(err)
	}
	if f, ok := c.Promote.FileFor("hanzo", "gateway"); !ok || f.Path != "infra/k8s/operator/crs/gateway-v1.yaml" {
		t.Errorf("hanzo/gateway → %+v, %v: the namespaced entry first", f, ok)
	}
	if f, ok := c.Promote.FileFor("hanzo-testnet", "gateway"); !ok || f.Path != "infra/k8s/operator/crs/gateway.yaml" {
		t.Errorf("hanzo-testnet/gateway → %+v, %v: the bare entry holds in any namespace", f, ok)
	}
	if _, ok := c.Promote.FileFor("hanzo", "iam"); ok {
		t.Error("iam has no entry")
	}
	const bad = `promote:
  files:
    a/b/c: {repo: hanzoai/universe, path: x.yaml}
    iam: {repo: universe, path: x.yaml}
    kms: {repo: hanzoai/universe, path: ../x.yaml}
    ui: {repo: hanzoai/universe, path: x.json}
  budgets: {sync: soon}
`
	_, err = Parse("c.yaml", []byte(bad), testChecks)
	if err == nil {
		t.Fatal("a bad promote section parsed")
	}
	for _, want := range []string{`"a/b/c" is not <app>`, `repo "universe" is not owner/repo`, `path "../x.yaml"`, `not a .yaml`, `"soon" is not a positive duration`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("errors lack %q:\n%v", want, err)
		}
	}
	if !strings.Contains(string(Schema()), "for fleets without CD") {
		t.Error("the schema does not describe promote.files")
	}
}
