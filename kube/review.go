package kube

import (
	"context"

	authzv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// canPatch asks the API server (SelfSubjectAccessReview) whether this
// identity may patch the workload, so the board can say "not allowed"
// before anyone confirms.
func (c *cluster) canPatch(ctx context.Context, resource, ns, name string) (bool, string, error) {
	return c.canPatchIn(ctx, "apps", resource, ns, name)
}

// canPatchIn is canPatch for a resource of any API group.
func (c *cluster) canPatchIn(ctx context.Context, group, resource, ns, name string) (bool, string, error) {
	r, err := c.clients.Kube.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, &authzv1.SelfSubjectAccessReview{
		Spec: authzv1.SelfSubjectAccessReviewSpec{ResourceAttributes: &authzv1.ResourceAttributes{
			Namespace: ns, Verb: "patch", Group: group, Resource: resource, Name: name,
		}},
	}, metav1.CreateOptions{})
	if err != nil {
		return false, "", err
	}
	why := r.Status.Reason
	if r.Status.EvaluationError != "" {
		why = r.Status.EvaluationError
	}
	return r.Status.Allowed && !r.Status.Denied, why, nil
}

// whoAmI is the Kubernetes user name of this cluster's identity, asked once
// (SelfSubjectReview); "" when the server cannot say.
func (c *cluster) whoAmI(ctx context.Context) string {
	c.mu.RLock()
	name := c.username
	c.mu.RUnlock()
	if name != "" {
		return name
	}
	name, err := WhoAmI(ctx, c.clients)
	if err != nil || name == "" {
		return ""
	}
	c.mu.Lock()
	c.username = name
	c.mu.Unlock()
	return name
}

// identity names the Kubernetes identity in sentences.
func (c *cluster) identity() string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.username != "" {
		return "Kubernetes user " + c.username
	}
	return "this identity"
}
