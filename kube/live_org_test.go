package kube

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/internal/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// A tenant namespace whose name carries a hashed org: the row's org is the
// namespace's hanzo.ai/org label, not the image's brand; a label change is
// picked up by the watch.
func TestLiveOrgFromNamespaceLabel(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	const ns = "tenant-weirdorg-0f3a"
	c.CreateNamespaces(ns)
	ctx := ctxT(t)
	_, err := c.AdminClient().CoreV1().Namespaces().Patch(ctx, ns, types.MergePatchType,
		[]byte(`{"metadata":{"labels":{"hanzo.ai/org":"weird_org"}}}`), metav1.PatchOptions{})
	must(t, err)
	seed(t, c, ns, "web", "", "v1.0.0", 1)
	f := startFleet(t, c.AdminConfig(), FleetOptions{Principal: principal(superAdmin)})
	waitRow(t, f, key(ns, "web"), "org from the namespace label", func(r *model.AppView) bool { return r != nil && r.Org == "weird_org" })

	_, err = c.AdminClient().CoreV1().Namespaces().Patch(ctx, ns, types.MergePatchType,
		[]byte(`{"metadata":{"labels":{"hanzo.ai/org":"renamed"}}}`), metav1.PatchOptions{})
	must(t, err)
	waitRow(t, f, key(ns, "web"), "label change picked up", func(r *model.AppView) bool { return r != nil && r.Org == "renamed" })
}
