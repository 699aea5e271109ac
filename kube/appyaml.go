package kube

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/hanzoai/driftboard/model"
)

// AppYAML reads, on demand, the App custom resource as YAML, as kubectl get
// -o yaml would show it: one GET through the dynamic client, because the
// informer's copy is trimmed to what the board uses. metadata.managedFields
// is dropped (field-manager bookkeeping, noise to a reader). Nothing is kept
// after the call. The text is the cluster's: the caller sanitises it.
func (f *Fleet) AppYAML(ctx context.Context, key model.Key) (string, error) {
	c := f.byName[key.Cluster]
	if c == nil {
		return "", fmt.Errorf("cluster %q is not on the board", key.Cluster)
	}
	what := fmt.Sprintf("App %s/%s", key.Namespace, key.Name)
	obj, err := c.clients.Dynamic.Resource(appsGVR).Namespace(key.Namespace).Get(ctx, key.Name, metav1.GetOptions{})
	switch {
	case apierrors.IsForbidden(err):
		c.whoAmI(ctx) // names the identity in the refusal (asked once per cluster)
		return "", fmt.Errorf("get %s: Kubernetes refused: %s may not get apps.hanzo.ai in namespace %s: %w",
			what, c.identity(), key.Namespace, apiErr(err))
	case apierrors.IsNotFound(err):
		return "", fmt.Errorf("%s not found on cluster %s (deleted since the board saw it?): %w", what, key.Cluster, apiErr(err))
	case err != nil:
		return "", fmt.Errorf("get %s: %w", what, apiErr(err))
	}
	unstructured.RemoveNestedField(obj.Object, "metadata", "managedFields")
	out, err := yaml.Marshal(obj.Object)
	if err != nil {
		return "", fmt.Errorf("%s as YAML: %w", what, err)
	}
	return string(out), nil
}
