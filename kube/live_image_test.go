package kube

import (
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// An untagged image runs latest (floating-running); a digest-only image is
// pinned: the short digest, neither floating nor un-rolled.
func TestLiveUntaggedAndDigestImages(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "iam", "iam", "v1.0.0", 1)
	f := startFleet(t, c.AdminConfig(), FleetOptions{Principal: principal(superAdmin)})
	iam := key("hanzo", "iam")
	waitRow(t, f, iam, "seeded", func(r *model.AppView) bool { return r != nil && r.RunningTag == "v1.0.0" })

	setImage := func(image string) {
		patch := `[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"` + image + `"}]`
		_, err := c.AdminClient().AppsV1().Deployments("hanzo").Patch(ctxT(t), "iam", types.JSONPatchType, []byte(patch), metav1.PatchOptions{})
		must(t, err)
	}
	hasFlag := func(r *model.AppView, k drift.DriftKind) bool {
		return slices.ContainsFunc(r.Drift.Flags, func(f drift.DriftFlag) bool { return f.Kind == k })
	}

	setImage("ghcr.io/hanzoai/iam")
	row := waitRow(t, f, iam, "untagged image", func(r *model.AppView) bool { return r != nil && r.Workload.SpecTag == "latest" })
	if !hasFlag(row, drift.DriftFloatingRunning) || row.Drift.Severity != drift.SeverityRed {
		t.Errorf("untagged image: running %q flags %+v, want latest and floating-running (red)", row.RunningTag, row.Drift.Flags)
	}

	const digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	setImage("ghcr.io/hanzoai/iam@" + digest)
	row = waitRow(t, f, iam, "digest-only image", func(r *model.AppView) bool { return r != nil && r.Workload.SpecTag == "@sha256:0123456789ab" })
	if hasFlag(row, drift.DriftFloatingRunning) || hasFlag(row, drift.DriftUnrolled) {
		t.Errorf("digest-only image: flags %+v, want neither floating nor un-rolled", row.Drift.Flags)
	}
}
