package model

import "strings"

// TrustModelDoc is the page that explains what receives the IAM token and
// what a cluster admin configures; refusals point there. A full address: the
// reader may have the binary only.
const TrustModelDoc = "Trust model, https://github.com/hanzoai/driftboard/blob/main/docs/trust-model.md"

// ClusterIdentity is who reads (and would act on) one cluster.
type ClusterIdentity struct {
	// IAM is true when the cluster's requests carry the IAM token (and
	// nothing else); false: the kubeconfig's own credentials.
	IAM bool `json:"iam"`
	// User is the name the API server gave (SelfSubjectReview) or, for a
	// kubeconfig identity, the kubeconfig's user entry; "" unknown.
	User   string   `json:"user,omitempty"`
	Groups []string `json:"groups,omitempty"`
	// Withheld says why the IAM identity is not used here (not declared
	// trusted, plain http, unverified TLS, rejected); restarts are refused
	// with it.
	Withheld string `json:"withheld,omitempty"`
}

// Describe is the one-line label the board and the CLI show per cluster.
func (i ClusterIdentity) Describe() string {
	user := i.User
	if user == "" {
		user = "(unknown user)"
	}
	if i.IAM {
		s := "read as IAM user " + user
		if len(i.Groups) > 0 {
			s += " (groups " + strings.Join(i.Groups, ", ") + ")"
		}
		return s
	}
	s := "read as kubeconfig user " + user
	if i.Withheld != "" {
		s += "; IAM token not used: " + i.Withheld + "; restarts refused here"
	}
	return s
}

// RestartRefusal is why a restart on a cluster read with this identity is
// refused; "" when the identity is IAM. A restart is made as the IAM
// identity or not at all.
func (i ClusterIdentity) RestartRefusal(cluster string) string {
	return i.ActionRefusal(cluster, "Restarts are made")
}

// ActionRefusal is RestartRefusal for any action done as the IAM identity,
// said as done ("CD syncs are asked").
func (i ClusterIdentity) ActionRefusal(cluster, done string) string {
	if i.IAM {
		return ""
	}
	why := i.Withheld
	if why == "" {
		why = "the cluster is read with the kubeconfig identity"
	}
	return done + " as your IAM identity or not at all, and cluster " + cluster + " does not get it: " + why +
		". A cluster admin must configure its API server to trust the IAM issuer, and the cluster must be listed in iam.clusters; see the " + TrustModelDoc + "."
}
