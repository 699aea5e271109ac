package model

import "strings"

// EnvOf maps a namespace to its environment (main|test|dev), "" if unknown.
func EnvOf(namespace string) string {
	switch namespace {
	case "hanzo", "hanzo-mainnet":
		return "main"
	case "hanzo-testnet":
		return "test"
	case "hanzo-devnet":
		return "dev"
	}
	if tenantOrg(namespace) != "" {
		return "main"
	}
	return ""
}

// TenantOf maps a namespace to the org that owns it for scoping, "" if the
// namespace belongs to no tenant (then only a SuperAdmin may act there).
func TenantOf(namespace string) string {
	switch namespace {
	case "hanzo", "hanzo-mainnet", "hanzo-testnet", "hanzo-devnet":
		return "hanzo"
	}
	return tenantOrg(namespace)
}

func tenantOrg(namespace string) string {
	org, ok := strings.CutPrefix(namespace, "tenant-")
	if !ok {
		return ""
	}
	return org
}
