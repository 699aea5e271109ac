package kube

import (
	"errors"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// A restart confirmed for one check acts only on what that check saw: made
// as another user (a login change rebuilds the fleet), or against another
// API server, it is refused and nothing is patched.
func TestLiveRestartIsBoundToTheCheck(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{})
	c.CreateNamespaces("hanzo")
	seed(t, c, "hanzo", "iam", "iam", "v1.0.0", 1)
	bindTenant(t, c, "hanzo", "alice")
	ctx := ctxT(t)
	_, err := c.AdminClient().RbacV1().RoleBindings("hanzo").Create(ctx, rbacBinding("hanzo", "bob"), metav1.CreateOptions{})
	must(t, err)
	k := key("hanzo", "iam")
	asAlice := startFleet(t, c.UserConfig("alice"), FleetOptions{})
	asBob := startFleet(t, c.UserConfig("bob"), FleetOptions{})
	d := asAlice.CheckRestart(ctx, k)
	if !d.Allowed || d.Bound.Actor != "alice" || d.Bound.UID == "" || d.Bound.Server != c.Host() {
		t.Fatalf("alice's check: %+v", d)
	}
	elsewhere := d.Bound
	elsewhere.Server = "https://elsewhere.example:6443"
	for name, tc := range map[string]struct {
		f    *Fleet
		b    model.Binding
		want string
	}{
		"another actor":  {asBob, d.Bound, "confirmed for alice, but it would now be made as bob"},
		"another server": {asAlice, elsewhere, "not by https://elsewhere.example:6443"},
	} {
		_, err := tc.f.RestartWith(ctx, k, RestartOptions{Bound: tc.b})
		var refused *RefusedError
		if !errors.As(err, &refused) || !strings.Contains(refused.Reason, tc.want) {
			t.Errorf("%s: %v, want a refusal saying %q", name, err, tc.want)
		}
	}
	dep, err := c.AdminClient().AppsV1().Deployments("hanzo").Get(ctx, "iam", metav1.GetOptions{})
	must(t, err)
	if by := dep.Spec.Template.Annotations[model.RestartedByAnnotation]; by != "" {
		t.Fatalf("a refused restart patched the workload (restartedBy %q)", by)
	}
	res, err := asAlice.RestartWith(ctx, k, RestartOptions{Bound: d.Bound})
	if err != nil || res.By != "alice" {
		t.Fatalf("the confirmed restart: %+v, %v", res, err)
	}
}
