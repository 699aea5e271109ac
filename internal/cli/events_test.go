package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/model"
)

// get reads the App's Events once from the real API server: the rollout's
// ScalingReplicaSet (Deployment) and SuccessfulCreate (ReplicaSet) Events,
// in text and in JSON's "events".
func TestGetEventsAgainstAPIServer(t *testing.T) {
	c := testcluster.Start(t, testcluster.Options{Controllers: true})
	c.CreateNamespaces("hanzo")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := c.SeedApp(ctx, "hanzo", "iam", "iam", "ghcr.io/hanzoai/iam", "v1.2.3", 1); err != nil {
		t.Fatal(err)
	}
	waitReady(ctx, t, c, "hanzo", "iam")
	e := newEnv(t)
	args := []string{"get", "hanzo/iam", "--kubeconfig", c.KubeconfigPath(), "--releases=off"}

	r := e.run(t, append(args, "-o", "json")...)
	r.expect(t, ExitOK)
	var doc struct {
		App    string         `json:"app"`
		Events *[]model.Event `json:"events"`
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil || doc.App != "iam" || doc.Events == nil {
		t.Fatalf("get -o json: %v\n%s", err, r.out)
	}
	reasons := map[string]string{}
	for _, ev := range *doc.Events {
		reasons[ev.Reason] = ev.Object
	}
	if !strings.HasPrefix(reasons["ScalingReplicaSet"], "Deployment iam") || !strings.HasPrefix(reasons["SuccessfulCreate"], "ReplicaSet iam-") {
		t.Errorf("events in JSON: %+v", *doc.Events)
	}

	r = e.run(t, args...)
	r.expect(t, ExitOK)
	for _, want := range []string{"Events:", "AGE", "ScalingReplicaSet", "Deployment iam", "SuccessfulCreate"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("get text lacks %q:\n%s", want, r.out)
		}
	}
}

// Unread Events are said so, never printed as none.
func TestWriteEventsUnread(t *testing.T) {
	var b bytes.Buffer
	row := rowWithEvents{AppView: &model.AppView{}, EventsNote: "cannot read (forbidden)"}
	if err := writeEvents(&b, row, time.Now()); err != nil || !strings.Contains(b.String(), "Events:  cannot read (forbidden)") {
		t.Errorf("forbidden: %q %v", b.String(), err)
	}
	j, err := json.Marshal(row)
	if err != nil || !strings.Contains(string(j), `"events":null,"eventsNote":"cannot read (forbidden)"`) {
		t.Errorf("forbidden JSON: %s %v", j, err)
	}
}

// get's Events name their reporter and say which restart record is
// driftboard's own.
func TestWriteEventsReporterAndRestart(t *testing.T) {
	var b bytes.Buffer
	now := time.Now()
	row := rowWithEvents{AppView: &model.AppView{}, Events: []model.Event{
		{Object: "Deployment web", Type: "Normal", Reason: "Restarted", Count: 1, Last: now, Reporter: "hanzo.ai/driftboard",
			Message: "by bob via driftboard", Restart: model.RestartUnmatched},
		{Object: "Deployment web", Type: "Normal", Reason: "Restarted", Count: 1, Last: now, Reporter: "hanzo.ai/driftboard",
			Message: "by alice via driftboard", Restart: model.RestartOwn},
	}}
	if err := writeEvents(&b, row, now); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"REPORTER", "hanzo.ai/driftboard  by bob via driftboard [NOT driftboard's last restart",
		"by alice via driftboard [driftboard's restart"} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
}
