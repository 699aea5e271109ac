package cli

import (
	"context"
	"net/http"

	"github.com/hanzoai/driftboard/auth"
	"github.com/hanzoai/driftboard/internal/config"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
)

// connect opens the chosen contexts with the kubeconfig's identities.
func (a *app) connect(contexts []string) ([]kube.ClusterClients, []model.ClusterState) {
	return kube.Connect(a.connectOptions(contexts))
}

func (a *app) connectOptions(contexts []string) kube.ConnectOptions {
	compression, _ := kube.ParseCompression(a.opts.compression) // checked by validate
	return kube.ConnectOptions{
		Kubeconfig:  a.opts.kubeconfig,
		Contexts:    contexts,
		AllContexts: a.opts.allContexts,
		Compression: compression,
		Log:         a.log,
		Plugins:     a.plugins,
	}
}

// connectAsIAM opens the contexts: those declared as trusting the issuer
// (iam.clusters, --iam-cluster) carry the IAM token so requests are made as
// the logged-in user; every other one is read with the kubeconfig identity,
// never sees the token, and its notices say so.
func (a *app) connectAsIAM(ctx context.Context, eff config.Effective, s *auth.Session) ([]kube.ClusterClients, []model.ClusterState) {
	onRejected := func(e *auth.ClusterRejectedError) {
		a.log.Warn("cluster rejected the IAM token", "host", e.Host, "issuer", e.Issuer)
	}
	o := a.connectOptions(eff.Contexts)
	o.Log = a.log.With("issuer", s.Issuer())
	return kube.ConnectWithIdentity(ctx, o, kube.IAMIdentity{
		Issuer:  s.Issuer(),
		Trusted: eff.IAM.Trust,
		Wrap: func(server string) (func(http.RoundTripper) http.RoundTripper, error) {
			return s.WrapTransport(server, onRejected)
		},
	})
}
