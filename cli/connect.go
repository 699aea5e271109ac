package cli

import (
	"context"

	"github.com/hanzoai/driftboard/auth"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
)

// connect opens the chosen contexts with the kubeconfig's identities.
func (a *app) connect(contexts []string) ([]kube.ClusterClients, []model.ClusterState) {
	return kube.Connect(a.connectOptions(contexts))
}

func (a *app) connectOptions(contexts []string) kube.ConnectOptions {
	return kube.ConnectOptions{
		Kubeconfig:  a.opts.kubeconfig,
		Contexts:    contexts,
		AllContexts: a.opts.allContexts,
	}
}

// connectAsIAM opens the contexts carrying the IAM token, so requests are
// made as the logged-in user; a cluster that does not trust the issuer is
// read with the kubeconfig identity and its notices say so.
func (a *app) connectAsIAM(ctx context.Context, contexts []string, s *auth.Session) ([]kube.ClusterClients, []model.ClusterState) {
	wrap := s.WrapTransport(func(e *auth.ClusterRejectedError) {
		a.log.Warn("cluster rejected the IAM token", "host", e.Host, "issuer", e.Issuer)
	})
	o := a.connectOptions(contexts)
	o.Log = a.log.With("issuer", s.Issuer())
	return kube.ConnectWithIdentity(ctx, o, wrap)
}
