package kube

import (
	"context"
	"errors"
	"net/url"
	"syscall"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
)

// A failing list reaches the reflector's error handler wrapped by the
// reflector itself ("failed to list …: "); callError must give back the
// call's own error, which observedLW reports too, or the syncing reason
// flips between two texts on every retry. The reflector here is client-go's
// own, so a change in its wrapping shows.
func TestCallErrorIsTheCallsOwn(t *testing.T) {
	for _, callErr := range []error{
		&url.Error{Op: "Get", URL: "https://127.0.0.1:1/apis/apps/v1/replicasets", Err: syscall.ECONNREFUSED},
		apierrors.NewForbidden(schema.GroupResource{Group: "apps", Resource: "replicasets"}, "", errors.New("RBAC: no")),
	} {
		lw := listOnly{&cache.ListWatch{
			ListWithContextFunc: func(context.Context, metav1.ListOptions) (runtime.Object, error) { return nil, callErr },
			WatchFuncWithContext: func(context.Context, metav1.ListOptions) (watch.Interface, error) {
				return nil, callErr
			},
		}}
		inf := cache.NewSharedIndexInformer(lw, &appsv1.ReplicaSet{}, 0, nil)
		seen := make(chan error, 1)
		if err := inf.SetWatchErrorHandlerWithContext(func(_ context.Context, _ *cache.Reflector, err error) {
			select {
			case seen <- err:
			default:
			}
		}); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		go inf.RunWithContext(ctx)
		var handed error
		select {
		case handed = <-seen:
		case <-time.After(10 * time.Second):
			cancel()
			t.Fatal("the reflector handed no error to its handler in 10 s")
		}
		cancel()
		if handed.Error() == callErr.Error() {
			t.Fatalf("the reflector no longer wraps the call's error (%q): this test checks nothing", handed)
		}
		if got := callError(handed); got.Error() != callErr.Error() {
			t.Errorf("callError(%q) = %q, want the call's own %q", handed, got, callErr)
		}
	}
}

// listOnly: the reflector lists, then watches (a watch-list's failures are
// retried inside the reflector, never handed to the handler).
type listOnly struct{ *cache.ListWatch }

func (listOnly) IsWatchListSemanticsUnSupported() bool { return true }
