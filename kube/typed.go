package kube

import (
	"net/http"

	"k8s.io/client-go/discovery"
	appsv1client "k8s.io/client-go/kubernetes/typed/apps/v1"
	authnv1client "k8s.io/client-go/kubernetes/typed/authentication/v1"
	authzv1client "k8s.io/client-go/kubernetes/typed/authorization/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/flowcontrol"
)

// TypedClients are the built-in API groups the board reads and writes.
// Not kubernetes.Interface: its constructor links the client of every API
// group into the binary, some 15 MB the board never calls. A
// *kubernetes.Clientset and the client-go fake both satisfy it.
type TypedClients interface {
	CoreV1() corev1client.CoreV1Interface
	AppsV1() appsv1client.AppsV1Interface
	AuthenticationV1() authnv1client.AuthenticationV1Interface
	AuthorizationV1() authzv1client.AuthorizationV1Interface
	Discovery() discovery.DiscoveryInterfaces
}

type typedClients struct {
	core  *corev1client.CoreV1Client
	apps  *appsv1client.AppsV1Client
	authn *authnv1client.AuthenticationV1Client
	authz *authzv1client.AuthorizationV1Client
	disc  *discovery.DiscoveryClient
}

func (c typedClients) CoreV1() corev1client.CoreV1Interface     { return c.core }
func (c typedClients) AppsV1() appsv1client.AppsV1Interface     { return c.apps }
func (c typedClients) Discovery() discovery.DiscoveryInterfaces { return c.disc }
func (c typedClients) AuthenticationV1() authnv1client.AuthenticationV1Interface {
	return c.authn
}
func (c typedClients) AuthorizationV1() authzv1client.AuthorizationV1Interface {
	return c.authz
}

// newTypedClients is kubernetes.NewForConfigAndClient for the groups of
// TypedClients: one transport and one rate limiter shared by all of them.
func newTypedClients(cfg *rest.Config, hc *http.Client) (TypedClients, error) {
	cfg = rest.CopyConfig(cfg)
	if cfg.RateLimiter == nil && cfg.QPS > 0 {
		cfg.RateLimiter = flowcontrol.NewTokenBucketRateLimiter(cfg.QPS, cfg.Burst)
	}
	var c typedClients
	var err error
	if c.core, err = corev1client.NewForConfigAndClient(cfg, hc); err != nil {
		return nil, err
	}
	if c.apps, err = appsv1client.NewForConfigAndClient(cfg, hc); err != nil {
		return nil, err
	}
	if c.authn, err = authnv1client.NewForConfigAndClient(cfg, hc); err != nil {
		return nil, err
	}
	if c.authz, err = authzv1client.NewForConfigAndClient(cfg, hc); err != nil {
		return nil, err
	}
	if c.disc, err = discovery.NewDiscoveryClientForConfigAndClient(cfg, hc); err != nil {
		return nil, err
	}
	return c, nil
}
