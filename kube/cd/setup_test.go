package cd

import (
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"

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
		dyn := dynfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
			map[schema.GroupVersionResource]string{CRDs: "CustomResourceDefinitionList"})
		cw := New(Config{Name: "c", Discovery: kube.Discovery(), Dynamic: dyn, Host: quietHost{}})
		w, notices := cw.setup(context.Background(), nil)
		if w.why != tt.why {
			t.Errorf("%s: why = %q, want %q (notices %q)", tt.name, w.why, tt.why, notices)
		}
		if tt.why == model.GitWhyUndiscovered && (len(notices) != 2 || !strings.Contains(notices[0], "discovery failed")) {
			t.Errorf("%s: notices = %q", tt.name, notices)
		}
	}
}

// quietHost is a cluster that builds plain informers and keeps nothing.
type quietHost struct{}

func (quietHost) NewInformer(_, _ string, list ListFunc, watch WatchFunc, transform cache.TransformFunc) (cache.SharedIndexInformer, error) {
	inf := cache.NewSharedIndexInformer(&cache.ListWatch{ListWithContextFunc: cache.ListWithContextFunc(list), WatchFuncWithContext: cache.WatchFuncWithContext(watch)},
		&unstructured.Unstructured{}, 0, cache.Indexers{})
	return inf, inf.SetTransform(transform)
}
func (quietHost) SetNotes(string, []string) {}
func (quietHost) SetNote(string, string)    {}
func (quietHost) Forget(string)             {}
func (quietHost) Signal()                   {}
func (quietHost) MarkRows([]model.Key)      {}
func (quietHost) MarkEveryRow()             {}
func (quietHost) AppKeys() []model.Key      { return nil }
func (quietHost) ErrText(err error) string  { return err.Error() }
