package kube

import (
	"testing"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// A tenant namespace whose name carries a hashed org: the row's org is the
// namespace's hanzo.ai/org label, not the image's brand; a label change is
// picked up by the watch.
func TestLiveOrgFromNamespaceLabel(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	const ns = "tenant-weirdorg-0f3a"
	c.CreateNamespaces(ns)
	labelOrg(t, c, ns, "weird_org")
	seed(t, c, ns, "web", "", "v1.0.0", 1)
	f := startFleet(t, c.AdminConfig(), FleetOptions{Principal: principal(superAdmin)})
	waitRow(t, f, key(ns, "web"), "org from the namespace label", func(r *model.AppView) bool { return r != nil && r.Org == "weird_org" })

	labelOrg(t, c, ns, "renamed")
	waitRow(t, f, key(ns, "web"), "label change picked up", func(r *model.AppView) bool { return r != nil && r.Org == "renamed" })
}
