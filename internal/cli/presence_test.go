package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// list -o wide and get decide what a row's workload is by the model's one
// rule (WorkloadView.Presence), also where facts overlap: each names the
// state Presence names.
func TestWideAndGetFollowWorkloadPresence(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	rollout := map[model.WorkloadPresence]string{
		model.WorkloadFound: "2/2", model.WorkloadUnreadable: "unreadable", model.WorkloadPending: "pending",
		model.WorkloadNoneByDesign: "none(delegated)", model.WorkloadMissing: "no-workload",
	}
	get := map[model.WorkloadPresence]string{
		model.WorkloadFound: "Deployment iam, 2/2 ready", model.WorkloadUnreadable: "forbidden; health unknown",
		model.WorkloadPending: "syncing; health and running tag unknown", model.WorkloadNoneByDesign: "none by design",
		model.WorkloadMissing: "not found",
	}
	for _, w := range []model.WorkloadView{
		{Found: true, Kind: model.KindDeployment, Name: "iam", Ready: 2, Desired: 2, Unreadable: "forbidden", Pending: "syncing"},
		{Unreadable: "forbidden", Pending: "syncing", None: "delegated"},
		{Pending: "syncing", None: "delegated"},
		{None: "delegated"},
		{},
	} {
		r := &model.AppView{App: "iam", Namespace: "hanzo", Cluster: "prod", Env: model.EnvMain, Workload: w}
		p := w.Presence()
		var table, detail bytes.Buffer
		if err := writeTable(&table, []*model.AppView{r}, true, now); err != nil {
			t.Fatal(err)
		}
		if err := writeDetail(&detail, r, now); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(table.String(), " "+rollout[p]+" ") {
			t.Errorf("presence %d: list -o wide lacks %q:\n%s", p, rollout[p], table.String())
		}
		if !strings.Contains(detail.String(), get[p]) {
			t.Errorf("presence %d: get lacks %q:\n%s", p, get[p], detail.String())
		}
	}
}
