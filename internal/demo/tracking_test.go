package demo

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// The demo's App CRs carry the key Hanzo CD writes (apps.hanzo.ai/tracking-id,
// not Argo CD's), and only where the demo's CD manages them: `y` and the
// detail's git section tell the same story.
func TestDemoTrackingIDMatchesGitState(t *testing.T) {
	d, snap := startDemo(t, Options{Seed: 1, Speed: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	managed, unmanaged := 0, 0
	for _, r := range snap.Rows() {
		if r.Kind == model.KindChart {
			continue
		}
		text, err := d.Fleet().AppYAML(ctx, r.Key())
		if err != nil && strings.Contains(err.Error(), "not found") {
			continue // the simulator deleted it since the snapshot
		} else if err != nil {
			t.Fatalf("%s: %v", r.Key(), err)
		}
		if strings.Contains(text, "argocd.argoproj.io") {
			t.Errorf("%s carries Argo CD's key, which Hanzo CD does not write", r.Key())
		}
		id := fmt.Sprintf("apps.hanzo.ai/tracking-id: universe-crs:hanzo.ai/%s:%s/%s", r.Kind, r.Namespace, r.Key().Name)
		switch has := strings.Contains(text, id); {
		case r.Git.State == model.GitNotManaged && strings.Contains(text, "tracking-id"):
			t.Errorf("%s: git says not managed, the CR carries a tracking id", r.Key())
		case r.Git.State != model.GitNotManaged && !has:
			t.Errorf("%s: git %s, the CR lacks %q", r.Key(), r.Git.State, id)
		case has:
			managed++
		default:
			unmanaged++
		}
	}
	if managed == 0 || unmanaged == 0 {
		t.Errorf("%d managed and %d unmanaged CRs; the demo has both", managed, unmanaged)
	}
}
