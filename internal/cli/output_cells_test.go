package cli

import (
	"bytes"
	"slices"
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

// -o wide's READY and ROLLOUT of a row without a workload say why there is
// none, never "0/0" (scaled to zero) or "-" (complete or not): missing,
// none by design, not listed yet, not readable.
func TestWideWorkloadCellsWithoutAWorkload(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	row := func(name, role string, wl *model.Workload) *model.AppView {
		app := model.AppObject{Key: model.Key{Cluster: "prod", Namespace: "hanzo", Name: name}, Kind: "App", Role: role,
			ImageRepository: "ghcr.io/hanzoai/" + name, ImageTag: "v1.0.0"}
		r := model.Build(app, wl, model.Release{State: model.ReleaseOff}, now)
		return &r
	}
	rows := []*model.AppView{
		row("orphan", "service", nil),
		row("dns", "dns", nil),
		row("waiting", "service", &model.Workload{Kind: model.KindDeployment, Name: "waiting", Pending: "Deployments in hanzo not listed yet"}),
		row("secret", "service", &model.Workload{Kind: model.KindDeployment, Name: "secret", Unreadable: "cannot read Deployments in hanzo (forbidden)"}),
	}
	var out bytes.Buffer
	if err := writeTable(&out, rows, true, now); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	head := strings.Fields(lines[0])
	col := func(name string) int { return slices.Index(head, name) }
	want := map[string][2]string{
		"orphan": {"-", "no-workload"}, "dns": {"-", "none(delegated)"},
		"waiting": {"?", "pending"}, "secret": {"?", "unreadable"},
	}
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		if len(f) != len(head) {
			t.Fatalf("%d fields under %d columns:\n%s", len(f), len(head), out.String())
		}
		w := want[f[col("APP")]]
		if got := [2]string{f[col("READY")], f[col("ROLLOUT")]}; got != w {
			t.Errorf("%s: READY, ROLLOUT = %v, want %v\n%s", f[col("APP")], got, w, out.String())
		}
	}
}
