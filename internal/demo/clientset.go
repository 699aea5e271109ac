package demo

import (
	discoveryclient "k8s.io/client-go/discovery"
	fakediscovery "k8s.io/client-go/discovery/fake"
	"k8s.io/client-go/kubernetes/scheme"
	appsv1client "k8s.io/client-go/kubernetes/typed/apps/v1"
	fakeappsv1 "k8s.io/client-go/kubernetes/typed/apps/v1/fake"
	authnv1client "k8s.io/client-go/kubernetes/typed/authentication/v1"
	fakeauthnv1 "k8s.io/client-go/kubernetes/typed/authentication/v1/fake"
	authzv1client "k8s.io/client-go/kubernetes/typed/authorization/v1"
	fakeauthzv1 "k8s.io/client-go/kubernetes/typed/authorization/v1/fake"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	fakecorev1 "k8s.io/client-go/kubernetes/typed/core/v1/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/hanzoai/driftboard/kube"
)

// fakeKube is client-go's fake clientset cut down to the groups of
// kube.TypedClients: the whole fake would link the client, fake and
// informer of every API group into the binary, which runs the demo.
type fakeKube struct {
	clienttesting.Fake
	tracker clienttesting.ObjectTracker
}

var _ kube.TypedClients = (*fakeKube)(nil)

// newFakeKube is an empty fake; its reactions are the caller's (wire).
func newFakeKube() *fakeKube {
	return &fakeKube{tracker: clienttesting.NewObjectTracker(scheme.Scheme, scheme.Codecs.UniversalDecoder())}
}

func (c *fakeKube) Tracker() clienttesting.ObjectTracker { return c.tracker }

func (c *fakeKube) CoreV1() corev1client.CoreV1Interface {
	return &fakecorev1.FakeCoreV1{Fake: &c.Fake}
}
func (c *fakeKube) AppsV1() appsv1client.AppsV1Interface {
	return &fakeappsv1.FakeAppsV1{Fake: &c.Fake}
}
func (c *fakeKube) AuthenticationV1() authnv1client.AuthenticationV1Interface {
	return &fakeauthnv1.FakeAuthenticationV1{Fake: &c.Fake}
}
func (c *fakeKube) AuthorizationV1() authzv1client.AuthorizationV1Interface {
	return &fakeauthzv1.FakeAuthorizationV1{Fake: &c.Fake}
}

// Discovery serves Fake.Resources.
func (c *fakeKube) Discovery() discoveryclient.DiscoveryInterfaces {
	return &fakediscovery.FakeDiscovery{Fake: &c.Fake}
}

// IsWatchListSemanticsUnSupported tells informers to list then watch, as
// client-go's fake does: its watches send no initial events.
func (c *fakeKube) IsWatchListSemanticsUnSupported() bool { return true }
