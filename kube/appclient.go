package kube

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/hanzoai/driftboard/kube/wire"
)

// appSource lists and watches one kind of App (apps or services) in one
// scope; its lists and events carry *appEntry.
type appSource interface {
	list(ctx context.Context, o metav1.ListOptions) (*wire.AppList, error)
	watch(ctx context.Context, o metav1.ListOptions) (watch.Interface, error)
}

// appsClient is the hanzo.ai/v1 REST client whose list and watch bodies are
// decoded in one parse per object (appSerializer). It shares the dynamic
// client's http.Client, so identity, TLS and the auth RoundTripper are the
// same.
type appsClient struct {
	rest    *rest.RESTClient
	decoded atomic.Int64 // Apps it decoded
}

var (
	hanzoV1        = schema.GroupVersion{Group: "hanzo.ai", Version: "v1"}
	paramsVersion  = schema.GroupVersion{Version: "v1"}
	appParameters  = runtime.NewScheme()
	appParamsCodec = runtime.NewParameterCodec(appParameters)
	_              = func() bool { metav1.AddToGroupVersion(appParameters, paramsVersion); return true }()
)

func newAppsClient(cluster string, cfg *rest.Config, hc *http.Client) (*appsClient, error) {
	c := rest.CopyConfig(cfg)
	c.GroupVersion = &hanzoV1
	c.APIPath = "/apis"
	c.ContentType = "application/json"
	c.AcceptContentTypes = "application/json"
	ac := &appsClient{}
	c.NegotiatedSerializer = wire.AppSerializer{Cluster: cluster, Decoded: &ac.decoded}
	rc, err := rest.RESTClientForConfigAndClient(c, hc)
	if err != nil {
		return nil, fmt.Errorf("hanzo.ai/v1 client: %w", err)
	}
	ac.rest = rc
	return ac, nil
}

type restApps struct {
	c         *appsClient
	resource  string
	namespace string
}

func (a restApps) list(ctx context.Context, o metav1.ListOptions) (*wire.AppList, error) {
	out := &wire.AppList{}
	err := a.c.rest.Get().NamespaceIfScoped(a.namespace, a.namespace != "").Resource(a.resource).
		SpecificallyVersionedParams(&o, appParamsCodec, paramsVersion).Do(ctx).Into(out)
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (a restApps) watch(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
	o.Watch = true
	return a.c.rest.Get().NamespaceIfScoped(a.namespace, a.namespace != "").Resource(a.resource).
		SpecificallyVersionedParams(&o, appParamsCodec, paramsVersion).Watch(ctx)
}

// dynamicApps serves the fake clients (demo fleet, unit tests), which
// cannot serve a REST client: the dynamic client's objects are decoded
// into the same entries.
type dynamicApps struct {
	cluster string
	ri      dynamic.ResourceInterface
}

func (a dynamicApps) list(ctx context.Context, o metav1.ListOptions) (*wire.AppList, error) {
	ul, err := a.ri.List(ctx, o)
	if err != nil {
		return nil, err
	}
	out := &wire.AppList{TypeMeta: metav1.TypeMeta{Kind: ul.GetKind(), APIVersion: ul.GetAPIVersion()}}
	out.ResourceVersion, out.Continue = ul.GetResourceVersion(), ul.GetContinue()
	out.RemainingItemCount = ul.GetRemainingItemCount()
	out.Items = make([]*wire.AppEntry, len(ul.Items))
	for i := range ul.Items {
		out.Items[i] = wire.AppEntryOf(a.cluster, &ul.Items[i])
	}
	return out, nil
}

func (a dynamicApps) watch(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
	w, err := a.ri.Watch(ctx, o)
	if err != nil {
		return nil, err
	}
	return watch.Filter(w, func(e watch.Event) (watch.Event, bool) {
		if u, ok := e.Object.(*unstructured.Unstructured); ok {
			if e.Type == watch.Bookmark {
				e.Object = wire.BookmarkEntry(u.GetResourceVersion(), u.GetAnnotations())
			} else {
				e.Object = wire.AppEntryOf(a.cluster, u)
			}
		}
		return e, true
	}), nil
}
