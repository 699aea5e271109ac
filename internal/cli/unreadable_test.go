package cli

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// A row whose workload may not be read has no running tag observed: list
// says n/a and ? (not ok and -, which claim a fact), get says which flags
// are unknown instead of "none", and list warns on stderr and counts it
// for --fail-on-unknown.
func TestUnreadableWorkloadIsUnknownNotNone(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	r := &model.AppView{App: "iam", Namespace: "hanzo", Cluster: "prod", Env: model.EnvMain, DeclaredTag: "v1.2.0",
		Workload: model.WorkloadView{Kind: model.KindDeployment, Name: "iam", Unreadable: "deployments in hanzo: forbidden"},
		Release:  model.Release{State: model.ReleaseFound, LatestTag: "v1.2.0", URL: "https://github.com/hanzoai/iam/releases/tag/v1.2.0"}}
	var table, detail, stderr bytes.Buffer
	if err := writeTable(&table, []*model.AppView{r}, false, now); err != nil {
		t.Fatal(err)
	}
	head, fields := strings.Fields(strings.Split(table.String(), "\n")[0]), strings.Fields(strings.Split(table.String(), "\n")[1])
	if running := slices.Index(head, "RUNNING"); fields[0] != "n/a" || fields[running] != "?" {
		t.Errorf("list row %q: want SEV n/a and RUNNING ?", fields)
	}
	if err := writeDetail(&detail, r, now); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`Severity:\s+n/a\n`, `running \(pods\)\s+\?\n`, `\n  none found; un-rolled and floating-running unknown \(the workload may not be read\)\n`} {
		if !regexp.MustCompile(want).MatchString(detail.String()) {
			t.Errorf("get lacks %s:\n%s", want, detail.String())
		}
	}
	if strings.Contains(detail.String(), "  none\n") {
		t.Errorf("get says no drift for a row whose running tag is unknown:\n%s", detail.String())
	}
	if n := warnUnreadableWorkloads(&stderr, []*model.AppView{r}); n != 1 || !strings.Contains(stderr.String(), "1 of 1 rows' workloads may not be read") {
		t.Errorf("warning %q, count %d: want it said and counted", stderr.String(), n)
	}
}
