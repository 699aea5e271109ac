package wire

import (
	"fmt"
	"runtime/debug"
	"testing"
	"unsafe"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// decodedDeployment is a ready Deployment whose strings are all its own, as
// each decoded watch event's are.
func decodedDeployment(name string) *appsv1.Deployment {
	own := func(s string) string { return string([]byte(s)) }
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: own("hanzo"),
			Annotations: map[string]string{RevisionAnnotation: own("3")}},
		Status: appsv1.DeploymentStatus{Conditions: []appsv1.DeploymentCondition{
			{Type: appsv1.DeploymentConditionType(own("Available")), Status: "True",
				Reason: own("MinimumReplicasAvailable"), Message: own("Deployment has minimum availability.")},
			{Type: appsv1.DeploymentConditionType(own("Progressing")), Status: "True", Reason: own("NewReplicaSetAvailable"),
				Message: own(fmt.Sprintf("ReplicaSet %q has successfully progressed.", name+"-5d4f8b"))},
		}},
	}
}

func sameBytes(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }

// TestWorkloadEntriesShareRepeatedStrings: two Deployments' entries share
// one copy of what repeats across a fleet (namespace, revision, condition
// types, reasons and a message that names no object), and keep their own
// message where it names the object; the values are unchanged.
func TestWorkloadEntriesShareRepeatedStrings(t *testing.T) {
	// unique's table lets a string go once no handle holds it: a GC between
	// the two decodes would give the second its own copy.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var es []*WorkloadEntry
	for _, name := range []string{"svc-00001", "svc-00002"} {
		obj, err := TransformDeployment(decodedDeployment(name))
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, obj.(*WorkloadEntry))
	}
	a, b := es[0], es[1]
	if a.Namespace != "hanzo" || a.Revision != "3" || a.W.Conditions[0].Reason != "MinimumReplicasAvailable" ||
		a.W.Conditions[1].Message != `ReplicaSet "svc-00001-5d4f8b" has successfully progressed.` {
		t.Fatalf("entry values changed: %+v", a)
	}
	shared := map[string][2]string{
		"namespace":         {a.Namespace, b.Namespace},
		"revision":          {a.Revision, b.Revision},
		"condition type":    {a.W.Conditions[0].Type, b.W.Conditions[0].Type},
		"condition reason":  {a.W.Conditions[1].Reason, b.W.Conditions[1].Reason},
		"condition message": {a.W.Conditions[0].Message, b.W.Conditions[0].Message},
	}
	for what, pair := range shared {
		if !sameBytes(pair[0], pair[1]) {
			t.Errorf("each entry keeps its own copy of the %s %q", what, pair[0])
		}
	}
	if sameBytes(a.W.Conditions[1].Message, b.W.Conditions[1].Message) {
		t.Error("messages that name their object were shared")
	}
}
