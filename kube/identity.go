package kube

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
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

// IAMIdentity is the identity ConnectWithIdentity carries where it may go.
type IAMIdentity struct {
	Issuer string // named in messages
	// Trusted reports whether a context (by name) or its API server (by
	// URL) is declared as trusting the issuer. Only those get the token.
	// why, when not "", says why a context that is named is not trusted.
	Trusted func(context, server string) (ok bool, why string)
	// Wrap returns a transport wrapper carrying the IAM token that is bound
	// to server (it refuses any request to another host or over http).
	Wrap func(server string) (func(http.RoundTripper) http.RoundTripper, error)
}

// ConnectWithIdentity opens the chosen contexts. Contexts declared as
// trusting the IAM issuer, served over https with verified TLS, get clients
// carrying only the IAM token (the kubeconfig's own credentials left out, or
// the API server would authenticate those), and the API server is asked who
// it thinks we are. Every other context, and one whose API server answers
// 401 to the token, is read with the kubeconfig identity: no request with
// the token goes to it, and its Identity says why restarts are refused.
func ConnectWithIdentity(ctx context.Context, opts ConnectOptions, iam IAMIdentity) ([]ClusterClients, []model.ClusterState) {
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	configs, failed := contextConfigs(opts)
	out := make([]ClusterClients, 0, len(configs))
	for _, c := range configs {
		cc, err := connectOne(ctx, opts, iam, c, log)
		if err != nil {
			failed = append(failed, failedState(opts, c.name, err))
			continue
		}
		cc.Notices = append([]string{cc.Identity.Describe()}, cc.Notices...)
		out = append(out, cc)
	}
	return out, failed
}

func connectOne(ctx context.Context, opts ConnectOptions, iam IAMIdentity, c contextConfig, log *slog.Logger) (ClusterClients, error) {
	kubeconfigClients := func(why string) (ClusterClients, error) {
		cc, err := NewClusterClients(c.name, c.config(), opts)
		cc.Identity = model.ClusterIdentity{User: c.authInfo, Withheld: why}
		if c.authInfo == "" {
			cc.Identity.User = "(in-cluster service account)"
		}
		log.Info("reading with the kubeconfig identity", "cluster", c.name, "why", why)
		return cc, err
	}
	server, _, err := rest.DefaultServerUrlFor(c.cfg)
	if err != nil {
		return ClusterClients{}, fmt.Errorf("context %s: server URL: %w", c.name, err)
	}
	trusted, why := false, ""
	if iam.Trusted != nil {
		trusted, why = iam.Trusted(c.name, server.String())
	}
	switch {
	case !trusted && why != "":
		return kubeconfigClients(why)
	case !trusted:
		return kubeconfigClients("the cluster is not declared as trusting issuer " + iam.Issuer + " (iam.clusters)")
	case server.Scheme != "https":
		return kubeconfigClients("the server " + server.Redacted() + " is plain http; the IAM token is only sent over verified TLS")
	case c.cfg.Insecure:
		return kubeconfigClients("the context skips TLS verification (insecure-skip-tls-verify); the IAM token is only sent over verified TLS")
	}
	wrap, err := iam.Wrap(server.String())
	if err != nil {
		return kubeconfigClients(err.Error())
	}
	cfg := rest.AnonymousClientConfig(c.cfg)
	cfg.Wrap(wrap)
	cc, err := NewClusterClients(c.name, cfg, opts)
	if err != nil {
		return ClusterClients{}, err
	}
	cc.Identity = model.ClusterIdentity{IAM: true}
	pctx, cancel := context.WithTimeout(ctx, identityProbeTimeout)
	user, err := Review(pctx, cc)
	cancel()
	switch {
	case err == nil:
		cc.Identity.User, cc.Identity.Groups = user.Username, user.Groups
		log.Info("acting as the IAM user", "cluster", c.name, "user", user.Username)
	case apierrors.IsUnauthorized(err):
		log.Warn("the API server rejected the IAM token", "cluster", c.name, "issuer", iam.Issuer)
		return kubeconfigClients("the API server rejected the IAM token (401): it does not trust issuer " + iam.Issuer)
	default:
		// Not an identity answer (unreachable, ...): keep the IAM clients;
		// the fleet reports the cluster's state, and a restart asks again.
		log.Warn("identity probe failed", "cluster", c.name, "err", err)
	}
	return cc, nil
}

// Review asks the cluster (SelfSubjectReview) which user its clients act as.
func Review(ctx context.Context, c ClusterClients) (authnv1.UserInfo, error) {
	r, err := c.Kube.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authnv1.SelfSubjectReview{}, metav1.CreateOptions{})
	if err != nil {
		return authnv1.UserInfo{}, fmt.Errorf("cluster %s: who am I: %w", c.Name, err)
	}
	return r.Status.UserInfo, nil
}

// WhoAmI is Review's user name; "" when the server does not say.
func WhoAmI(ctx context.Context, c ClusterClients) (string, error) {
	u, err := Review(ctx, c)
	return u.Username, err
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
