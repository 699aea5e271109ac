package model

import (
	"slices"
	"strings"
)

// Env is a deployment environment of the platform. It is the one home of
// the namespace ↔ env rules: cli, kube and ui ask it instead of comparing
// strings, so "production" means the same on the board and on the command line.
type Env string

const (
	EnvMain Env = "main" // production
	EnvTest Env = "test"
	EnvDev  Env = "dev"
)

// Envs lists the known environments, production first.
var Envs = []Env{EnvMain, EnvTest, EnvDev}

// TenantPrefix starts every tenant namespace: tenant-<org>.
const TenantPrefix = "tenant-"

// envNamespaces are the platform's own namespaces per env; tenants are main.
var envNamespaces = map[Env][]string{
	EnvMain: {"hanzo", "hanzo-mainnet"},
	EnvTest: {"hanzo-testnet"},
	EnvDev:  {"hanzo-devnet"},
}

// ParseEnv reads a user's --env value; ok is false for anything else.
func ParseEnv(s string) (Env, bool) {
	e := Env(s)
	return e, slices.Contains(Envs, e)
}

// IsProduction reports the env whose actions need a typed confirmation.
func (e Env) IsProduction() bool { return e == EnvMain }

// Namespaces are the platform namespaces of the env (tenant namespaces,
// which are all production, are not listed: they are per org).
func (e Env) Namespaces() []string { return slices.Clone(envNamespaces[e]) }

// Rank orders envs production first; unknown envs last.
func (e Env) Rank() int {
	if i := slices.Index(Envs, e); i >= 0 {
		return i
	}
	return len(Envs)
}

// PlatformNamespaces are the platform's own namespaces across all envs, in
// env order: what is probed when namespaces cannot be listed.
func PlatformNamespaces() []string {
	var out []string
	for _, e := range Envs {
		out = append(out, envNamespaces[e]...)
	}
	return out
}

// TenantNamespace is the namespace the platform writes an org's apps into.
func TenantNamespace(org string) string { return TenantPrefix + strings.ToLower(org) }

// EnvOf maps a namespace to its environment, "" if unknown.
func EnvOf(namespace string) Env {
	for _, e := range Envs {
		if slices.Contains(envNamespaces[e], namespace) {
			return e
		}
	}
	if tenantOrg(namespace) != "" {
		return EnvMain
	}
	return ""
}

// TenantOf maps a namespace to the org that owns it for scoping, "" if the
// namespace belongs to no tenant (then only a SuperAdmin may act there).
func TenantOf(namespace string) string {
	for _, e := range Envs { // PlatformNamespaces without its slice: this runs for every row built
		if slices.Contains(envNamespaces[e], namespace) {
			return "hanzo"
		}
	}
	return tenantOrg(namespace)
}

func tenantOrg(namespace string) string {
	org, ok := strings.CutPrefix(namespace, TenantPrefix)
	if !ok {
		return ""
	}
	return org
}
