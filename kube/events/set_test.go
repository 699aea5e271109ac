package events

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/hanzoai/driftboard/model"
)

func event(name, kind, object, reason, reporter, restartedAt string, uid types.UID, at time.Time) *corev1.Event {
	return &corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{Name: name, Namespace: "hanzo", UID: types.UID("ev-" + name), Annotations: map[string]string{model.RestartedAtAnnotation: restartedAt}},
		InvolvedObject: corev1.ObjectReference{Kind: kind, Namespace: "hanzo", Name: object, UID: uid},
		Reason:         reason, ReportingController: reporter, LastTimestamp: metav1.NewTime(at), Count: 1,
	}
}

// Only the App's Events are kept: the App, its Deployment, the ReplicaSets
// the cache names and their pods, never a look-alike name (web-api's); a
// restart record is the board's own only when it names the workload's last
// restart and its UID.
func TestRecentKeepsTheAppsEventsAndTellsItsOwnRestart(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 1, 7, 0, 0, 0, time.UTC)
	kube := fake.NewClientset(
		event("a", "App", "web", "Synced", "", "", "", at),
		event("b", "Deployment", "web", RestartReason, RestartController, "t2", "uid-web", at.Add(time.Minute)),
		event("c", "Deployment", "web", RestartReason, RestartController, "t1", "uid-web", at.Add(2*time.Minute)),
		event("d", "ReplicaSet", "web-6d4f", "SuccessfulCreate", "", "", "", at.Add(3*time.Minute)),
		event("e", "Pod", "web-6d4f-x2x7k", "Pulled", "", "", "", at.Add(4*time.Minute)),
		event("f", "Pod", "web-api-6d4f-x2x7k", "Pulled", "", "", "", at.Add(5*time.Minute)),
		event("g", "ReplicaSet", "web-0000", "SuccessfulCreate", "", "", "", at.Add(6*time.Minute)),
		event("h", "StatefulSet", "web", "Created", "", "", "", at.Add(7*time.Minute)),
	)
	src := &Source{Events: kube.CoreV1().Events("hanzo"), Key: model.Key{Cluster: "c", Namespace: "hanzo", Name: "web"}, AppKind: "App",
		Workload:    func() *Workload { return &Workload{Kind: model.KindDeployment, UID: "uid-web", RestartedAt: "t2"} },
		ReplicaSets: func() []string { return []string{"web-6d4f"} },
		Identity:    func(context.Context) string { return "alice" }, Explain: func(err error) error { return err },
	}
	got, err := Recent(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"App web": "", "Deployment web@t2": model.RestartOwn, "Deployment web@t1": model.RestartUnmatched,
		"ReplicaSet web-6d4f": "", "Pod web-6d4f-x2x7k": ""}
	if len(got) != len(want) {
		t.Fatalf("kept %d Events, want %d: %+v", len(got), len(want), got)
	}
	for _, e := range got {
		k := e.Object
		if e.Reason == RestartReason {
			k += "@" + map[bool]string{true: "t2", false: "t1"}[e.Last.Equal(at.Add(time.Minute))]
		}
		restart, ok := want[k]
		if !ok || e.Restart != restart {
			t.Errorf("%s (restart %q) kept; want %v", k, e.Restart, want)
		}
	}
}
