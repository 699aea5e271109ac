package kube

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"time"

	authnv1 "k8s.io/api/authentication/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	"github.com/hanzoai/driftboard/model"
)

// identityProbeTimeout bounds each "who am I" asked while connecting, so one
// slow cluster does not hold up the board's start.
const identityProbeTimeout = 10 * time.Second

// ConnectWithIdentity opens the chosen contexts with wrap carrying another
// identity (the IAM token) as the only credential: the kubeconfig's own
// (client certificate, token, exec plugin) is left out, or the API server
// would authenticate that instead. Each cluster is asked who it thinks we
// are; one that answers 401 does not trust that identity and is opened with
// the kubeconfig identity instead, with a notice saying so. wrap replaces
// opts.WrapTransport for those clients.
func ConnectWithIdentity(ctx context.Context, opts ConnectOptions, wrap func(http.RoundTripper) http.RoundTripper) ([]ClusterClients, []model.ClusterState) {
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	withWrap := opts
	withWrap.WrapTransport = wrap
	iam, failed := connect(withWrap, rest.AnonymousClientConfig)
	plain, _ := Connect(opts)
	byName := map[string]ClusterClients{}
	for _, c := range plain {
		byName[c.Name] = c
	}
	out := make([]ClusterClients, 0, len(iam))
	for _, c := range iam {
		pctx, cancel := context.WithTimeout(ctx, identityProbeTimeout)
		who, err := WhoAmI(pctx, c)
		cancel()
		switch {
		case err == nil:
			log.Info("acting as the IAM user", "cluster", c.Name, "user", who)
			out = append(out, c)
		case apierrors.IsUnauthorized(err) && byName[c.Name].Kube != nil:
			// The notice travels with the cluster's state, so the board's
			// status line shows it (and one-shot commands print it).
			plain := byName[c.Name]
			user := kubeconfigIdentity(ctx, plain, opts.Kubeconfig)
			log.Warn("cluster does not trust the IAM issuer (401 to the IAM token); using the kubeconfig identity",
				"cluster", c.Name, "user", user)
			plain.Notices = append(slices.Clone(plain.Notices), FallbackNotice(user))
			out = append(out, plain)
		default:
			// Not an identity problem (unreachable, ...): keep the IAM
			// clients; the fleet reports the cluster's state itself.
			log.Warn("identity probe failed", "cluster", c.Name, "err", err)
			out = append(out, c)
		}
	}
	return out, failed
}

// FallbackNotice is what the board says about a cluster that refused the
// IAM token and is read as user, the kubeconfig identity.
func FallbackNotice(user string) string {
	return "IAM token not trusted by this cluster; using kubeconfig identity " + user
}

// WhoAmI asks the cluster (SelfSubjectReview) which user its clients act
// as; the name is "" when the server does not say.
func WhoAmI(ctx context.Context, c ClusterClients) (string, error) {
	r, err := c.Kube.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authnv1.SelfSubjectReview{}, metav1.CreateOptions{})
	if err != nil {
		return "", fmt.Errorf("cluster %s: who am I: %w", c.Name, err)
	}
	return r.Status.UserInfo.Username, nil
}

// kubeconfigIdentity names who the kubeconfig clients act as: the API
// server's own answer, else the user entry of the kubeconfig context.
func kubeconfigIdentity(ctx context.Context, c ClusterClients, kubeconfig string) string {
	pctx, cancel := context.WithTimeout(ctx, identityProbeTimeout)
	defer cancel()
	if who, err := WhoAmI(pctx, c); err == nil && who != "" {
		return who
	}
	if raw, err := loadingRules(kubeconfig).Load(); err == nil {
		if kc := raw.Contexts[c.Name]; kc != nil && kc.AuthInfo != "" {
			return kc.AuthInfo
		}
	}
	return "(unknown user)"
}

// ContextNames lists the kubeconfig's context names, sorted, found by the
// same rules as Connect.
func ContextNames(kubeconfig string) ([]string, error) {
	raw, err := loadingRules(kubeconfig).Load()
	if err != nil {
		return nil, fmt.Errorf("load kubeconfig: %w", err)
	}
	return contextNames(raw, ConnectOptions{AllContexts: true})
}
