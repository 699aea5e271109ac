package wire

import (
	"fmt"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Seeds and helpers for the workloads' resources left out (podresources.go);
// TestWorkloadEventDecodeMatchesTheMachinery runs them.

// podSpecEvent is an ADDED event of a Deployment whose pod template's spec
// is podSpec.
func podSpecEvent(podSpec []byte) []byte {
	template := bytesField(nil, 2, podSpec)
	spec := bytesField(nil, 3, template)
	deployment := bytesField(bytesField(nil, 1, bytesField(nil, 1, []byte("svc-1"))), 2, spec)
	typeMeta := bytesField(bytesField(nil, 1, []byte("apps/v1")), 2, []byte("Deployment"))
	unknown := bytesField(bytesField(nil, 1, typeMeta), 2, deployment)
	object := append([]byte("k8s\x00"), unknown...)
	return bytesField(bytesField(nil, 1, []byte("ADDED")), 2, bytesField(nil, 1, object))
}

// containerWithCPU is a Container whose CPU limit is quantity.
func containerWithCPU(quantity string) []byte {
	limit := bytesField(bytesField(nil, 1, []byte("cpu")), 2, bytesField(nil, 1, []byte(quantity)))
	c := bytesField(bytesField(nil, 1, []byte("app")), 2, []byte("ghcr.io/hanzoai/app:v1"))
	return bytesField(c, 8, bytesField(nil, 1, limit))
}

// refusedQuantity is a Deployment whose container's CPU limit is no
// quantity: well-formed protobuf the generated Unmarshal refuses, so the
// event must fail as it does though its resources are left out.
func refusedQuantity() []byte {
	return podSpecEvent(bytesField(nil, 2, containerWithCPU("abc!")))
}

// overrunningNodeSelector is a Deployment whose pod spec's nodeSelector
// entry claims more bytes than it holds: the generated code reads on into
// the container after it, whose bytes leaving its resources out changes.
func overrunningNodeSelector() []byte {
	entry := protowire.AppendTag(nil, 1, protowire.BytesType)
	entry = protowire.AppendVarint(entry, 1+4)
	entry = append(entry, 'a')
	return podSpecEvent(bytesField(bytesField(nil, 7, entry), 2, containerWithCPU("250m")))
}

// podSpecOf is a workload's pod template's spec.
func podSpecOf(o runtime.Object) *corev1.PodSpec {
	switch o := o.(type) {
	case *appsv1.Deployment:
		return &o.Spec.Template.Spec
	case *appsv1.ReplicaSet:
		return &o.Spec.Template.Spec
	case *appsv1.StatefulSet:
		return &o.Spec.Template.Spec
	}
	return nil
}

// withoutResources clears what the in-place decoding leaves out on purpose
// from spec: its containers' resources, which no transform reads.
func withoutResources(spec *corev1.PodSpec) {
	for _, cs := range [][]corev1.Container{spec.Containers, spec.InitContainers} {
		for i := range cs {
			cs[i].Resources = corev1.ResourceRequirements{}
		}
	}
}

// fleetDeployment is a Deployment as the bench's fleet seeds them: twelve
// environment variables, probes, a port, limits and requests.
func fleetDeployment() *appsv1.Deployment {
	replicas := int32(2)
	env := make([]corev1.EnvVar, 12)
	for i := range env {
		env[i] = corev1.EnvVar{Name: fmt.Sprintf("SETTING_%02d", i), Value: fmt.Sprintf("svc-00003-value-%02d-abcdefghijklmnop", i)}
	}
	probe := &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromInt32(8080)}},
		InitialDelaySeconds: 5, PeriodSeconds: 10, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3}
	labels := map[string]string{"app.kubernetes.io/name": "svc-00003", "app.kubernetes.io/instance": "svc-00003"}
	return &appsv1.Deployment{TypeMeta: metav1.TypeMeta{Kind: "Deployment", APIVersion: "apps/v1"},
		ObjectMeta: metav1.ObjectMeta{Name: "svc-00003", Namespace: "tenant-org07", UID: "u-3", ResourceVersion: "4242", Generation: 1,
			Labels: labels, Annotations: map[string]string{RevisionAnnotation: "1"}},
		Spec: appsv1.DeploymentSpec{Replicas: &replicas, Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "svc-00003", Image: "ghcr.io/hanzoai/svc-00003:v1.2.3",
					Env: env, Ports: []corev1.ContainerPort{{ContainerPort: 8080, Protocol: corev1.ProtocolTCP}},
					LivenessProbe: probe, ReadinessProbe: probe, ImagePullPolicy: corev1.PullIfNotPresent,
					Resources: corev1.ResourceRequirements{
						Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("256Mi")},
						Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")}}}}}}},
		Status: appsv1.DeploymentStatus{Replicas: 2, ReadyReplicas: 2, AvailableReplicas: 2, UpdatedReplicas: 2, ObservedGeneration: 1}}
}

// BenchmarkDecodeWorkloadEvent is one Deployment watch event of the bench's
// fleet through workloadCodecs' decoders and the informer's transform.
func BenchmarkDecodeWorkloadEvent(b *testing.B) {
	frame := protobufEvent(b, "ADDED", fleetDeployment())
	objDec, events := eventDecoders(b, newWorkloadCodecs(nil))
	b.ReportAllocs()
	for b.Loop() {
		var ev metav1.WatchEvent
		if _, _, err := events.Decode(frame, nil, &ev); err != nil {
			b.Fatal(err)
		}
		o, err := runtime.Decode(objDec, ev.Object.Raw)
		if err != nil {
			b.Fatal(err)
		}
		if e, err := TransformDeployment(o); err != nil || len(e.(*WorkloadEntry).W.Containers) != 1 {
			b.Fatal("not decoded", err)
		}
	}
}
