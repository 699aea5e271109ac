package kube

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// restart --wait follows StatefulSets as kubectl's rollout status does: a
// partition that holds every pod back is a finished (partitioned) rollout,
// not an endless wait, and OnDelete is refused at once with the reason.
func TestLiveStatefulSetPartitionAndOnDelete(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{Controllers: true})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "part", "sql", "v1.0.0", 2)
	seed(t, c, "hanzo", "ondel", "sql", "v1.0.0", 2)
	ctx := ctxT(t)
	sts := c.AdminClient().AppsV1().StatefulSets("hanzo")
	_, err := sts.Patch(ctx, "part", types.MergePatchType,
		[]byte(`{"spec":{"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":2}}}}`), metav1.PatchOptions{})
	must(t, err)
	_, err = sts.Patch(ctx, "ondel", types.MergePatchType,
		[]byte(`{"spec":{"updateStrategy":{"type":"OnDelete","rollingUpdate":null}}}`), metav1.PatchOptions{})
	must(t, err)

	f := startFleet(t, c.AdminConfig(), FleetOptions{Principal: principal(superAdmin)})
	for _, name := range []string{"part", "ondel"} {
		waitRow(t, f, key("hanzo", name), name+" ready", func(r *model.AppView) bool {
			return r != nil && r.Workload.Rollout == model.RolloutComplete
		})
	}

	part := key("hanzo", "part")
	_, err = f.RestartWith(ctx, part, RestartOptions{})
	must(t, err)
	wctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := f.WaitRollout(wctx, part, nil); err != nil {
		t.Fatalf("partition 2 of 2: WaitRollout: %v (kubectl calls this rollout complete)", err)
	}
	if out, err := c.Kubectl(ctx, "rollout", "status", "statefulset/part", "-n", "hanzo", "--timeout=30s"); err != nil ||
		!strings.Contains(out, "partitioned roll out complete") {
		t.Errorf("kubectl rollout status: %q %v", out, err)
	}
	waitRow(t, f, part, "partitioned rollout complete on the board", func(r *model.AppView) bool {
		return r != nil && r.Workload.RestartedAt != "" && r.Workload.Rollout == model.RolloutComplete
	})

	ondel := key("hanzo", "ondel")
	_, err = f.RestartWith(ctx, ondel, RestartOptions{})
	must(t, err)
	wctx2, cancel2 := context.WithTimeout(ctx, 60*time.Second)
	defer cancel2()
	err = f.WaitRollout(wctx2, ondel, nil)
	if err == nil || !strings.Contains(err.Error(), "OnDelete") || wctx2.Err() != nil {
		t.Errorf("OnDelete: WaitRollout = %v, want an immediate refusal naming OnDelete", err)
	}
	if out, err := c.Kubectl(ctx, "rollout", "status", "statefulset/ondel", "-n", "hanzo", "--timeout=10s"); err == nil {
		t.Errorf("kubectl rollout status accepted OnDelete: %q", out)
	}
}
