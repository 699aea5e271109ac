package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/model"
)

// TestHeaderSaysReleaseChecksFail: when the reader's checks fail (no DNS),
// the header says so with the reason, the rows waiting and when they are
// tried again, not only that rows wait, which reads as a pass under way.
func TestHeaderSaysReleaseChecksFail(t *testing.T) {
	m, src := newTestModel(t, allowed(), orgAdmin(), Options{}, 200, 24)
	for _, name := range []string{"iam", "kms"} {
		src.upsert(app{ns: "hanzo", name: name, declared: "v1.4.0", running: "v1.4.0", ready: 1, updated: 1, replicas: 1,
			release: model.ReleaseError}.build())
	}
	why := "GitHub: dial tcp: lookup api.github.com: no such host\x1b[2J"
	src.SetReleaseChecks(model.ReleaseChecks{Remaining: -1, Failing: why, FailingChecks: 2, NextTry: t0.Add(50 * time.Second)})
	m.Update(snapshotMsg{src.Snapshot()})
	head := strings.Join(strings.SplitN(plainView(m), "\n", 3)[:2], "\n")
	for _, want := range []string{"release checks failing: GitHub: dial tcp: lookup api.github.com: no such host",
		"(2 rows wait, next try 14:00:50)"} {
		if !strings.Contains(head, want) {
			t.Errorf("header lacks %q:\n%s", want, head)
		}
	}
	if strings.Contains(head, "wait on release checks") {
		t.Errorf("the header still reads as checks under way:\n%s", head)
	}
	if strings.Contains(m.View().Content, "\x1b[2J") {
		t.Error("the failure's words reached the terminal unsanitised")
	}
}
