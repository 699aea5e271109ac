package wire

import (
	"fmt"
	"testing"

	"github.com/hanzoai/driftboard/model"
)

// Hanzo CD's tracking-id is kept whatever the annotation cap: a promotion
// finds the Application that syncs the App by it.
func TestTrackingIDSurvivesTheAnnotationCap(t *testing.T) {
	t.Parallel()
	ann := map[string]any{model.CDTrackingIDAnnotation: "universe-crs:hanzo.ai/App:hanzo/iam"}
	for i := range maxLabels + 10 {
		ann[fmt.Sprintf("a%03d.example.com/x", i)] = "y"
	}
	app := DecodeApp("c1", map[string]any{"metadata": map[string]any{"name": "iam", "namespace": "hanzo", "annotations": ann}})
	if got := app.Annotations[model.CDTrackingIDAnnotation]; got != "universe-crs:hanzo.ai/App:hanzo/iam" {
		t.Errorf("tracking-id %q after the cap of %d annotations", got, maxLabels)
	}
}
