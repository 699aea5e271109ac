package kube

import (
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/hanzoai/driftboard/model"
)

// Discovery that fails is not "no Application kind served": the git state
// is unknown because the kinds could not be discovered, and a notice says so.
func TestSetupCDDiscoveryFailureIsNotNoKind(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		err  error
		why  string
	}{
		{"not found", apierrors.NewNotFound(schema.GroupResource{Resource: "resource"}, ""), model.GitWhyNoKind},
		{"unavailable", apierrors.NewServiceUnavailable("etcd leader changed"), model.GitWhyUndiscovered},
	} {
		kube := fake.NewClientset()
		kube.PrependReactor("get", "resource", func(k8stesting.Action) (bool, runtime.Object, error) { return true, nil, tt.err })
		f := NewFleet(FleetOptions{}, ClusterClients{Name: "c", Kube: kube, Dynamic: dynfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
			map[schema.GroupVersionResource]string{crdGVR: "CustomResourceDefinitionList"})})
		w, notices := f.clusters[0].setupCD(context.Background(), nil)
		if w.why != tt.why {
			t.Errorf("%s: why = %q, want %q (notices %q)", tt.name, w.why, tt.why, notices)
		}
		if tt.why == model.GitWhyUndiscovered && (len(notices) != 2 || !strings.Contains(notices[0], "discovery failed")) {
			t.Errorf("%s: notices = %q", tt.name, notices)
		}
	}
}
