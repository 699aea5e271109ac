package testcluster

import (
	"context"
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// HostileFields are the values SeedHostileApp wrote, as the API server
// stored them.
type HostileFields struct {
	Tag, Org, Phase, Reason, Message, Endpoint, RestartedBy string
}

// SeedHostileApp seeds an App and its Deployment whose every free-text field
// the API server accepts holds text: the declared tag, the hanzo.ai/org
// annotation, status phase, condition reason and message, an endpoint, and
// the restartedBy annotation of the pod template. Names and labels are
// validated by the API server and stay plain.
func (c *Cluster) SeedHostileApp(ctx context.Context, namespace, name, text string) (HostileFields, error) {
	// As stored: JSON carries no bytes that are not UTF-8 (each becomes U+FFFD).
	var stored string
	b, _ := json.Marshal(text)
	_ = json.Unmarshal(b, &stored)
	f := HostileFields{Tag: "v1" + stored, Org: "org" + stored, Phase: "Running" + stored, Reason: "Why" + stored,
		Message: "msg" + stored, Endpoint: "https://x.example/" + stored, RestartedBy: "eve" + stored}
	if err := c.SeedApp(ctx, namespace, name, "service", "ghcr.io/hanzoai/"+name, "v1.0.0", 1); err != nil {
		return f, err
	}
	res := c.adminDyn.Resource(AppsGVR).Namespace(namespace)
	patch, _ := json.Marshal(map[string]any{
		"metadata": map[string]any{"annotations": map[string]string{"hanzo.ai/org": f.Org}},
		"spec":     map[string]any{"image": map[string]any{"tag": f.Tag}},
	})
	if _, err := res.Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		return f, fmt.Errorf("patch app %s/%s: %w", namespace, name, err)
	}
	status, _ := json.Marshal(map[string]any{"status": map[string]any{
		"phase":      f.Phase,
		"conditions": []any{map[string]any{"type": "Ready", "status": "False", "reason": f.Reason, "message": f.Message}},
		"endpoints":  []any{f.Endpoint},
	}})
	if _, err := res.Patch(ctx, name, types.MergePatchType, status, metav1.PatchOptions{}, "status"); err != nil {
		return f, fmt.Errorf("patch app status %s/%s: %w", namespace, name, err)
	}
	tmpl, _ := json.Marshal(map[string]any{"spec": map[string]any{"template": map[string]any{"metadata": map[string]any{
		"annotations": map[string]string{"hanzo.ai/restartedAt": "2026-11-30T13:00:00Z", "hanzo.ai/restartedBy": f.RestartedBy}}}}})
	if _, err := c.adminKube.AppsV1().Deployments(namespace).Patch(ctx, name, types.StrategicMergePatchType, tmpl, metav1.PatchOptions{}); err != nil {
		return f, fmt.Errorf("patch deployment %s/%s: %w", namespace, name, err)
	}
	return f, nil
}
