package cli

import (
	"context"
	"maps"
	"net/http"
	"slices"
	"time"

	authnv1 "k8s.io/api/authentication/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/hanzoai/driftboard/auth"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
)

// iamClients makes clients whose only credential is the IAM token: the
// kubeconfig's own (client certificate, token, exec plugin) is left out, or
// the API server would authenticate that instead.
func (a *app) iamClients(contexts []string, wrap func(http.RoundTripper) http.RoundTripper) ([]kube.ClusterClients, []model.ClusterState) {
	o := a.connectOptions(contexts)
	o.WrapTransport = wrap
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = a.opts.kubeconfig
	raw, err := rules.Load()
	if err != nil || len(raw.Contexts) == 0 {
		return kube.Connect(o) // kube reports the kubeconfig problem (or uses in-cluster config)
	}
	names := contexts
	switch {
	case a.opts.allContexts:
		names = slices.Sorted(maps.Keys(raw.Contexts))
	case len(names) == 0:
		names = []string{raw.CurrentContext}
	}
	var out []kube.ClusterClients
	var failed []model.ClusterState
	for _, name := range names {
		cfg, err := clientcmd.NewNonInteractiveClientConfig(*raw, name, &clientcmd.ConfigOverrides{}, rules).ClientConfig()
		if err == nil {
			var cc kube.ClusterClients
			if cc, err = kube.NewClusterClients(name, rest.AnonymousClientConfig(cfg), o); err == nil {
				out = append(out, cc)
				continue
			}
		}
		failed = append(failed, model.ClusterState{Name: name, Phase: model.ConnFailed, Since: time.Now(), Reason: err.Error()})
	}
	return out, failed
}

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

// fallbackNotice is what the board says about a cluster that refused the
// IAM token.
func fallbackNotice(user string) string {
	return "IAM token not trusted by this cluster; using kubeconfig identity " + user
}

// identityOf names who clients act as: the API server's own answer, else the
// user entry of the kubeconfig context.
func (a *app) identityOf(ctx context.Context, c kube.ClusterClients) string {
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	r, err := c.Kube.AuthenticationV1().SelfSubjectReviews().Create(pctx, &authnv1.SelfSubjectReview{}, metav1.CreateOptions{})
	if err == nil && r.Status.UserInfo.Username != "" {
		return r.Status.UserInfo.Username
	}
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = a.opts.kubeconfig
	if raw, err := rules.Load(); err == nil {
		if kc := raw.Contexts[c.Name]; kc != nil && kc.AuthInfo != "" {
			return kc.AuthInfo
		}
	}
	return "(unknown user)"
}

// connectAsIAM opens the contexts carrying the IAM token, so requests are
// made as the logged-in user. Each cluster is asked who it thinks we are; one
// that answers 401 does not trust the issuer and is reopened with the
// kubeconfig identity, and the cluster's notices say so.
func (a *app) connectAsIAM(ctx context.Context, contexts []string, s *auth.Session) ([]kube.ClusterClients, []model.ClusterState) {
	wrap := s.WrapTransport(func(e *auth.ClusterRejectedError) {
		a.log.Warn("cluster rejected the IAM token", "host", e.Host, "issuer", e.Issuer)
	})
	iam, failed := a.iamClients(contexts, wrap)
	plain, _ := a.connect(contexts)
	byName := map[string]kube.ClusterClients{}
	for _, c := range plain {
		byName[c.Name] = c
	}
	out := make([]kube.ClusterClients, 0, len(iam))
	for _, c := range iam {
		pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		r, err := c.Kube.AuthenticationV1().SelfSubjectReviews().Create(pctx, &authnv1.SelfSubjectReview{}, metav1.CreateOptions{})
		cancel()
		switch {
		case err == nil:
			a.log.Info("acting as the IAM user", "cluster", c.Name, "user", r.Status.UserInfo.Username)
			out = append(out, c)
		case apierrors.IsUnauthorized(err) && byName[c.Name].Kube != nil:
			// The notice travels with the cluster's state, so the board's
			// status line shows it (and one-shot commands print it).
			plain := byName[c.Name]
			who := a.identityOf(ctx, plain)
			a.log.Warn("cluster does not trust the IAM issuer (401 to the IAM token); using the kubeconfig identity",
				"cluster", c.Name, "issuer", s.Issuer(), "user", who)
			plain.Notices = append(slices.Clone(plain.Notices), fallbackNotice(who))
			out = append(out, plain)
		default:
			// Not an identity problem (unreachable, ...): keep the IAM
			// clients; the fleet reports the cluster's state itself.
			a.log.Warn("identity probe failed", "cluster", c.Name, "err", err)
			out = append(out, c)
		}
	}
	return out, failed
}
