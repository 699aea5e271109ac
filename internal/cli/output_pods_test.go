package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// Failing pods are named in list's DRIFT column (one cell, no spaces) and
// carried with reason and pods in JSON.
func TestListNamesFailingPods(t *testing.T) {
	t.Parallel()
	one := int32(3)
	app := model.AppObject{Key: model.Key{Cluster: "prod", Namespace: "hanzo", Name: "api"}, Kind: "App",
		ImageRepository: "ghcr.io/hanzoai/api", ImageTag: "v1.0.0"}
	wl := &model.Workload{Kind: model.KindDeployment, Name: "api", OwnedByApp: true, Replicas: &one,
		ReadyReplicas: 3, UpdatedReplicas: 1, AvailableReplicas: 3,
		Containers: []model.Container{{Name: "api", Image: "ghcr.io/hanzoai/api:v1.0.0"}},
		FailingPods: []model.PodFailure{{Pod: "api-7d9f-x2", Reason: "CrashLoopBackOff"},
			{Pod: "api-7d9f-x3", Reason: "CrashLoopBackOff"}, {Pod: "api-7d9f-x4", Reason: "CrashLoopBackOff"}}}
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	r := model.Build(app, wl, model.Release{State: model.ReleaseOff}, now)
	var out bytes.Buffer
	if err := writeTable(&out, []*model.AppView{&r}, false, now); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "!CrashLoopBackOff:api-7d9f-x2(+2)") {
		t.Errorf("list row does not name the failing pods:\n%s", out.String())
	}
	js, err := json.Marshal(&r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"kind":"pods-failing","text":"CrashLoopBackOff: api-7d9f-x2 (+2)","reason":"CrashLoopBackOff","pods":["api-7d9f-x2","api-7d9f-x3","api-7d9f-x4"],"count":3`) {
		t.Errorf("JSON problems: %s", js)
	}
}
