package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// Text from the cluster with spaces in it (an App's status phase, a CD
// revision) stays one field in list's table, so scripts that split lines on
// whitespace read the columns the header names; JSON keeps the exact text.
func TestListCellsWithSpacesStayOneField(t *testing.T) {
	t.Parallel()
	one := int32(1)
	app := model.AppObject{Key: model.Key{Cluster: "prod", Namespace: "hanzo", Name: "api"}, Kind: "App",
		ImageRepository: "ghcr.io/hanzoai/api", ImageTag: "v1.0.0", Phase: "Rolling  out\tslowly"}
	wl := &model.Workload{Kind: model.KindDeployment, Name: "api", OwnedByApp: true, Replicas: &one,
		ReadyReplicas: 1, UpdatedReplicas: 1, AvailableReplicas: 1,
		Containers: []model.Container{{Name: "api", Image: "ghcr.io/hanzoai/api:v1.0.0"}}}
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	r := model.Build(app, wl, model.Release{State: model.ReleaseOff}, now)
	r.Git = model.GitSync{State: model.GitSynced, Revision: "abc 123"}
	for _, wide := range []bool{false, true} {
		var out bytes.Buffer
		if err := writeTable(&out, []*model.AppView{&r}, wide, now); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if len(lines) != 2 {
			t.Fatalf("wide %v: want a header and one row:\n%s", wide, out.String())
		}
		head, row := strings.Fields(lines[0]), strings.Fields(lines[1])
		if len(head) != len(row) {
			t.Errorf("wide %v: %d header fields, %d row fields:\n%s", wide, len(head), len(row), out.String())
		}
		if !strings.Contains(lines[1], `Rolling_out\x09slowly`) { // the tab escaped, as every control character
			t.Errorf("wide %v: the phase is not one field:\n%s", wide, out.String())
		}
		if wide && !strings.Contains(lines[1], "synced@abc_123") {
			t.Errorf("the revision is not one field:\n%s", out.String())
		}
	}
}
