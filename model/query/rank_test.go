package query

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/modeltest"
	"github.com/hanzoai/driftboard/model/store"
)

// rankFleet is the demo's look-alikes of iam: red charts that "iam" matches
// as a subsequence of their IDs (hanzo/analytics-chart/main), a red app
// whose name starts with iam, and iam itself, healthy (last by severity).
func rankFleet(t *testing.T) []*model.AppView {
	t.Helper()
	var rows []*model.AppView
	for _, sp := range []struct{ name, tag, running string }{
		{"analytics-chart", "latest", "latest"},
		{"api-chart", "latest", "latest"},
		{"billing-chart", "latest", "latest"},
		{"iam-proxy", "latest", "latest"},
		{"iam", "v1.2.3", "v1.2.3"},
	} {
		a := modeltest.BaseApp()
		a.Name, a.Role, a.ImageTag = sp.name, "", sp.tag
		wl := modeltest.BaseWorkload()
		wl.Name = sp.name
		wl.Containers = []model.Container{{Name: sp.name, Image: "ghcr.io/hanzoai/" + sp.name + ":" + sp.running}}
		v := model.Build(a, wl, model.Release{State: model.ReleaseFound, LatestTag: "v1.2.3", URL: "https://github.com/r/v1.2.3", Assets: 1}, modeltest.T0)
		rows = append(rows, &v)
	}
	return rows
}

// Free text ranks as fzf does: the app named exactly first, then names that
// start with it, then the other matches; each group in the board's sort.
func TestFreeTextRanksExactThenPrefix(t *testing.T) {
	t.Parallel()
	rows := rankFleet(t)
	tests := []struct {
		q    string
		by   SortKey
		want []string
	}{
		{"iam", SortSeverity, []string{"iam", "iam-proxy", "analytics-chart", "api-chart", "billing-chart"}},
		{"IAM", SortName, []string{"iam", "iam-proxy", "analytics-chart", "api-chart", "billing-chart"}},
		{"chart", SortName, []string{"analytics-chart", "api-chart", "billing-chart"}},
		{"api", SortSeverity, []string{"api-chart", "iam-proxy"}}, // hanzo/iam-proxy/main
		// no free text, or only a negated one: the sort alone
		{"", SortSeverity, []string{"analytics-chart", "api-chart", "billing-chart", "iam-proxy", "iam"}},
		{"-proxy", SortSeverity, []string{"analytics-chart", "api-chart", "billing-chart", "iam"}},
	}
	for _, tt := range tests {
		q, err := Parse(tt.q)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, names(Select(rows, q, tt.by))); diff != "" {
			t.Errorf("Select(%q, %v) (-want +got):\n%s", tt.q, tt.by, diff)
		}
		st := store.New()
		st.UpsertRows(rows)
		v := NewView(q, tt.by, nil)
		v.Sync(st.Snapshot())
		if diff := cmp.Diff(tt.want, names(v.Rows())); diff != "" {
			t.Errorf("View(%q, %v) (-want +got):\n%s", tt.q, tt.by, diff)
		}
	}
}
