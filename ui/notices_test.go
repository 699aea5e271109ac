package ui

import (
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/model"
)

// A cluster's notices (e.g. the identity it fell back to) reach the status
// line while nothing more urgent is said there.
func TestClusterNoticeOnStatusLine(t *testing.T) {
	m, src := newTestModel(t, nil, nil, Options{}, 160, 30)
	const said = "IAM token not trusted by this cluster; using kubeconfig identity admin"
	src.SetClusters([]model.ClusterState{{Name: "prod", Phase: model.ConnLive, Since: t0, Notices: []string{said}}})
	m.Update(snapshotMsg{src.Snapshot()})
	if v := plainView(m); !strings.Contains(v, "prod: "+said) {
		t.Errorf("the status line lacks the cluster's notice:\n%s", v)
	}
}
