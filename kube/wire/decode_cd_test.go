package wire

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hanzoai/driftboard/model"
)

func TestDecodeCDApplication(t *testing.T) {
	t.Parallel()
	obj := map[string]any{
		"metadata": map[string]any{"name": "iam", "namespace": "hanzo-cd"},
		"spec": map[string]any{"source": map[string]any{"repoURL": "oci://charts", "chart": "iam",
			"helm": map[string]any{
				"parameters": []any{map[string]any{"name": "image.tag", "value": "v1.3.0"}},
				"values":     "image:\n  repository: ghcr.io/hanzoai/iam\n  tag: v0.0.1\n  digest: sha256:" + strings.Repeat("a", 64) + "\n",
			}},
			"destination": map[string]any{"namespace": "hanzo"}},
		"status": map[string]any{
			"sync":           map[string]any{"status": "OutOfSync", "revision": "1.4.2"},
			"health":         map[string]any{"status": "Degraded\u202e"},
			"operationState": map[string]any{"phase": "Failed", "message": "boom\x1b[2J" + strings.Repeat("x", 400), "finishedAt": "yesterday"},
			"resources": []any{
				map[string]any{"group": "apps", "kind": "Deployment", "namespace": "hanzo", "name": "iam", "status": "Synced", "health": map[string]any{"status": "Degraded"}},
				"not an object",
				map[string]any{"kind": 7, "name": "x"},
			},
		},
	}
	a := DecodeCDApplication("c1", "apps.hanzo.ai", obj)
	if a.Image != (model.CDImage{Repository: "ghcr.io/hanzoai/iam", Tag: "v1.3.0", Digest: "sha256:" + strings.Repeat("a", 64), From: "helm parameter image.tag"}) {
		t.Errorf("image = %+v: a parameter overrides values, as Helm applies them", a.Image)
	}
	// Exact values (escaping is the printers' rule, so -o json carries them), capped.
	if !strings.HasPrefix(a.Operation.Message, "boom\x1b[2Jxxx") || len(a.Operation.Message) > maxCDMessageLen+len("…") {
		t.Errorf("message not exact and capped: %q", a.Operation.Message)
	}
	if a.Health != "Degraded\u202e" || a.Operation.Phase != "Failed" {
		t.Errorf("health %q, phase %q: not the values written", a.Health, a.Operation.Phase)
	}
	if !a.Operation.FinishedAt.IsZero() {
		t.Errorf("finishedAt %v from a malformed time", a.Operation.FinishedAt)
	}
	want := []model.CDResource{
		{Group: "apps", Kind: "Deployment", Namespace: "hanzo", Name: "iam", Status: "Synced", Health: "Degraded"},
		{Name: "x"},
	}
	if d := cmp.Diff(want, a.Resources); d != "" {
		t.Errorf("resources (-want +got):\n%s", d)
	}
	if len(a.DecodeErrors) != 3 {
		t.Errorf("decode errors = %q, want finishedAt, resources[1] and resources[2].kind", a.DecodeErrors)
	}

	git := DecodeCDApplication("c1", "apps.hanzo.ai", map[string]any{"spec": map[string]any{
		"source":     map[string]any{"repoURL": "https://github.com/hanzoai/universe", "path": "infra/k8s/operator/crs", "targetRevision": "main"},
		"syncPolicy": map[string]any{"automated": map[string]any{"selfHeal": true}}}})
	if git.TargetRevision != "main" || !git.Automated || len(git.DecodeErrors) != 0 {
		t.Errorf("targetRevision %q, automated %v, errors %q: want main, true, none", git.TargetRevision, git.Automated, git.DecodeErrors)
	}
	byHand := DecodeCDApplication("c1", "apps.hanzo.ai", map[string]any{"spec": map[string]any{
		"syncPolicy": map[string]any{"syncOptions": []any{"Prune=false"}}}})
	if byHand.Automated {
		t.Error("an Application without syncPolicy.automated read as syncing by itself")
	}

	many := make([]any, maxCDResources+1)
	for i := range many {
		many[i] = map[string]any{"kind": "App", "name": "a"}
	}
	capped := DecodeCDApplication("c1", "argoproj.io", map[string]any{"status": map[string]any{"resources": many, "sync": []any{}}})
	if !capped.ResourcesCapped || len(capped.Resources) != maxCDResources {
		t.Errorf("capped = %v with %d resources, want true and %d", capped.ResourcesCapped, len(capped.Resources), maxCDResources)
	}
	if len(capped.DecodeErrors) != 2 { // the cap, and status.sync of the wrong type
		t.Errorf("decode errors = %q", capped.DecodeErrors)
	}
}
