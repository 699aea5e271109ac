package kube

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
)

// karmadaClustersGVR are Karmada's Clusters: their Ready condition is the
// only sign that a member's rows are stale, since the proxy goes on serving
// a killed member's last objects and sends no event for them.
var karmadaClustersGVR = schema.GroupVersionResource{Group: "cluster.karmada.io", Version: "v1alpha1", Resource: "clusters"}

// watchClusters follows the members' Clusters on Karmada's API server and
// marks a member's rows stale, with Karmada's reason, while it is not Ready.
func (fs *karmadaFeeds) watchClusters(ctx context.Context) {
	ri := fs.host.Dynamic.Resource(karmadaClustersGVR)
	lw := &cache.ListWatch{
		ListWithContextFunc:  func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return ri.List(ctx, o) },
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) { return ri.Watch(ctx, o) },
	}
	inf := cache.NewSharedIndexInformer(lw, &unstructured.Unstructured{}, 0, cache.Indexers{})
	set := func(obj any) {
		if u, ok := obj.(*unstructured.Unstructured); ok {
			fs.setStatus(u.GetName(), clusterNotReady(u))
		}
	}
	_, _ = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: set, UpdateFunc: func(_, cur any) { set(cur) },
		DeleteFunc: func(obj any) {
			if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = t.Obj
			}
			if u, ok := obj.(*unstructured.Unstructured); ok { // its rows go; its line says why, once
				for _, f := range fs.byKind {
					f.DropMember(u.GetName())
				}
				fs.setStatus(u.GetName(), fmt.Errorf("%s is no longer a member of Karmada (%s)", u.GetName(), fs.source))
			}
		},
	})
	inf.RunWithContext(ctx)
}

// clusterNotReady is why Karmada says the Cluster is not Ready, nil when it
// is (or says nothing yet: the proxy serves only Ready members).
func clusterNotReady(u *unstructured.Unstructured) error {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		m, _ := c.(map[string]any)
		if m["type"] != "Ready" {
			continue
		}
		if m["status"] == "True" {
			return nil
		}
		return fmt.Errorf("cluster %s is not ready in Karmada (%v): %v", u.GetName(), m["reason"], m["message"])
	}
	return nil
}

// statusID is the connection state's entry for the Cluster's status.
func (fs *karmadaFeeds) statusID() string { return "karmada " + fs.source + " cluster status" }

// setStatus records the member's status and tells its cluster, if known
// (a member whose cluster starts later is told then, by run).
func (fs *karmadaFeeds) setStatus(member string, notReady error) {
	fs.mu.Lock()
	fs.status[member] = notReady
	conn := fs.byMember[member]
	fs.mu.Unlock()
	if conn != nil {
		tellStatus(conn, fs.statusID(), notReady)
	}
}

func tellStatus(conn *connState, id string, notReady error) {
	if notReady != nil {
		conn.callFailed(id, notReady)
	} else {
		conn.callOK(id)
	}
}
