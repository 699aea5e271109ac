package demo

import (
	"testing"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/query"
)

// "/iam" on the demo's fleet: iam itself first, not after every chart whose
// ID holds i…a…m and whose drift sorts it higher.
func TestFreeTextIAMPutsIAMFirst(t *testing.T) {
	_, snap := startDemo(t, Options{Seed: 1, Speed: 1})
	q, err := query.Parse("iam")
	if err != nil {
		t.Fatal(err)
	}
	rows := query.Select(snap.Rows(), q, query.SortSeverity)
	if n := countApp(rows, "iam"); n == 0 || len(rows) == n {
		t.Fatalf("iam matches %d rows (%d of them iam), want iam and its look-alikes", len(rows), n)
	}
	var names []string
	for _, r := range rows {
		names = append(names, r.Key().Cluster+":"+r.App)
	}
	for i, r := range rows {
		if (r.App == "iam") != (i < countApp(rows, "iam")) {
			t.Fatalf("iam rows are not first: %v", names)
		}
	}
}

func countApp(rows []*model.AppView, app string) int {
	n := 0
	for _, r := range rows {
		if r.App == app {
			n++
		}
	}
	return n
}
