package demo

import (
	"fmt"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynfake "k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"
)

var (
	appsGVR     = schema.GroupVersionResource{Group: "hanzo.ai", Version: "v1", Resource: "apps"}
	servicesGVR = schema.GroupVersionResource{Group: "hanzo.ai", Version: "v1", Resource: "services"}
	// Hanzo CD's Applications (applications.apps.hanzo.ai), which give the
	// rows their git state (see kube/cd).
	cdAppsGVR = schema.GroupVersionResource{Group: "apps.hanzo.ai", Version: "v1alpha1", Resource: "applications"}
	// The CRDs of the CD kinds not served (Argo CD's) are watched by name,
	// for a CD installed while the board runs; the demo's never is.
	crdsGVR = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

	deploymentsGVR  = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	statefulSetsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "statefulsets"}
	replicaSetsGVR  = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "replicasets"}
	revisionsGVR    = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "controllerrevisions"}
	podsGVR         = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	namespacesGVR   = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
)

var kindOf = map[schema.GroupVersionResource]string{
	appsGVR: "App", servicesGVR: "Service", cdAppsGVR: "Application",
	deploymentsGVR: "Deployment", statefulSetsGVR: "StatefulSet", replicaSetsGVR: "ReplicaSet",
	revisionsGVR: "ControllerRevision", podsGVR: "Pod", namespacesGVR: "Namespace",
	{Version: "v1", Resource: "events"}: "Event", {Version: "v1", Resource: "configmaps"}: "ConfigMap",
}

// accessRule decides a SelfSubjectAccessReview: the demo's stand-in for the
// cluster's RBAC.
type accessRule func(attr *authorizationv1.ResourceAttributes) (allowed bool, reason string)

// fakeCluster is one simulated cluster: the client-go fakes behind an
// apiTracker, with the reactions an API server would give.
type fakeCluster struct {
	name string
	kube *fakeKube
	dyn  *dynfake.FakeDynamicClient
}

func newFakeCluster(name string, now func() time.Time, id *identity) *fakeCluster {
	stamp := func() metav1.Time { return metav1.NewTime(now().UTC().Truncate(time.Second)) }
	fc := &fakeCluster{name: name}

	fc.kube = newFakeKube()
	wire(&fc.kube.Fake, newAPITracker(fc.kube.Tracker(), name, stamp))
	fc.kube.PrependReactor("create", "selfsubjectaccessreviews", ssarReaction(id.access))
	fc.kube.PrependReactor("create", "selfsubjectreviews", id.selfSubjectReview)
	fc.kube.Resources = discovery()

	scheme := runtime.NewScheme()
	for gvr, kind := range map[schema.GroupVersionResource]string{appsGVR: "App", servicesGVR: "Service", cdAppsGVR: "Application"} {
		scheme.AddKnownTypeWithName(gvr.GroupVersion().WithKind(kind), &unstructured.Unstructured{})
	}
	fc.dyn = dynfake.NewSimpleDynamicClientWithCustomListKinds(scheme, map[schema.GroupVersionResource]string{
		appsGVR: "AppList", servicesGVR: "ServiceList", cdAppsGVR: "ApplicationList", crdsGVR: "CustomResourceDefinitionList",
	})
	wire(&fc.dyn.Fake, newAPITracker(fc.dyn.Tracker(), name, stamp))
	return fc
}

// wire replaces the fake's reactions with ones that go through tr.
func wire(f *clienttesting.Fake, tr *apiTracker) {
	f.ReactionChain = nil
	f.WatchReactionChain = nil
	f.AddReactor("list", "*", listReaction(tr))
	f.AddReactor("*", "*", clienttesting.ObjectReaction(tr))
	f.AddWatchReactor("*", watchReaction(tr))
}

// ssarReaction answers access reviews from the rule; the fake alone would
// store the review and answer with an empty status, that is, denied.
func ssarReaction(access accessRule) clienttesting.ReactionFunc {
	return func(action clienttesting.Action) (bool, runtime.Object, error) {
		ca, ok := action.(clienttesting.CreateAction)
		if !ok {
			return false, nil, nil
		}
		review, ok := ca.GetObject().(*authorizationv1.SelfSubjectAccessReview)
		if !ok {
			return true, nil, fmt.Errorf("selfsubjectaccessreview: unexpected object %T", ca.GetObject())
		}
		out := review.DeepCopy()
		if attr := out.Spec.ResourceAttributes; attr != nil {
			out.Status.Allowed, out.Status.Reason = access(attr)
			out.Status.Denied = !out.Status.Allowed
		} else {
			out.Status.Allowed, out.Status.Reason = true, "RBAC: allowed (non-resource URL)"
		}
		return true, out, nil
	}
}

// clearActions drops the fakes' record of every call, which otherwise grows
// for as long as the demo runs.
func (fc *fakeCluster) clearActions() {
	fc.kube.ClearActions()
	fc.dyn.ClearActions()
}

// discovery is what the fake's discovery serves: the resources the board
// uses, the hanzo.ai CRDs included.
func discovery() []*metav1.APIResourceList {
	verbs := metav1.Verbs{"get", "list", "watch", "create", "update", "patch", "delete"}
	res := func(name, kind string, namespaced bool, short ...string) metav1.APIResource {
		return metav1.APIResource{Name: name, Kind: kind, Namespaced: namespaced, Verbs: verbs, ShortNames: short}
	}
	return []*metav1.APIResourceList{
		{GroupVersion: "hanzo.ai/v1", APIResources: []metav1.APIResource{
			res("apps", "App", true, "app"), res("apps/status", "App", true),
			res("services", "Service", true, "hsvc"), res("services/status", "Service", true),
		}},
		// Hanzo CD's Application: its short names collide with the App's.
		{GroupVersion: "apps.hanzo.ai/v1alpha1", APIResources: []metav1.APIResource{
			res("applications", "Application", true, "app", "apps"),
		}},
		{GroupVersion: "apps/v1", APIResources: []metav1.APIResource{
			res("deployments", "Deployment", true, "deploy"), res("statefulsets", "StatefulSet", true, "sts"),
			res("replicasets", "ReplicaSet", true, "rs"), res("controllerrevisions", "ControllerRevision", true),
		}},
		{GroupVersion: "v1", APIResources: []metav1.APIResource{
			res("namespaces", "Namespace", false, "ns"), res("pods", "Pod", true, "po"), res("events", "Event", true, "ev"),
		}},
	}
}
