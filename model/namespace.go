package model

// NamespaceOrgLabel is the label the platform puts on a tenant namespace
// naming its org. The namespace name carries a sanitised org (an org name
// that is not a clean DNS label gets a hashed suffix), so the label is the
// truth; the name is only a fallback when the labels are unknown.
const NamespaceOrgLabel = "hanzo.ai/org"

// OrgOfNamespace is the org that owns namespace, for scoping: the platform
// namespaces belong to hanzo; a tenant namespace to its hanzo.ai/org label,
// else (no label, or labels not observed: nil) to the org in its name
// (tenant-<org>). "" means no org owns it: only a SuperAdmin may act there.
// A label is used only on a tenant namespace, so a label on kube-system or
// another namespace cannot hand it to an org.
func OrgOfNamespace(namespace string, labels map[string]string) string {
	name := TenantOf(namespace)
	if tenantOrg(namespace) == "" {
		return name // a platform namespace, or none
	}
	if org := labels[NamespaceOrgLabel]; org != "" {
		return org
	}
	return name
}
