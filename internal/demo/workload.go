package demo

import (
	"fmt"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/hanzoai/driftboard/model"
)

// Simulated durations, before Speed divides them.
const (
	progressDeadline = 120 * time.Second // spec.progressDeadlineSeconds
	podStartMin      = 2 * time.Second   // a new pod becomes ready after 2–4 s
	podStartJitter   = 2 * time.Second
	rolloutStep      = time.Second // the controllers act at most once a second per workload
)

// workload is the simulator's memory of one Deployment or StatefulSet: the
// pod sets and pods it made (the fake runs no controllers). The workload's
// spec lives in the API; spec fields here are the last read copy.
type workload struct {
	fc   *fakeCluster
	app  *appPlan
	kind model.WorkloadKind
	uid  types.UID

	generation int64
	replicas   int32
	paused     bool
	template   corev1.PodTemplateSpec

	revs    []*revision // oldest first; the last one matching template is current
	lastRev int64
	// done: the current template has fully rolled out once (then Progressing
	// stays NewReplicaSetAvailable, as the deployment controller keeps it).
	done         bool
	lastProgress time.Time
	crashAll     bool // every pod crashes: a bad config, restarts do not help
	nextStep     time.Time
	deadline     time.Duration // progressDeadline divided by Speed
	statusKey    string        // the status last written
	lastStatus   appsv1.DeploymentStatus
}

const revisionAnnotation = "deployment.kubernetes.io/revision"

// revisionNumber is the Deployment's revision: that of the newest
// ReplicaSet (a paused Deployment does not make one for its new template).
func (w *workload) revisionNumber() int64 {
	if cur := w.current(); cur != nil {
		return cur.number
	}
	if len(w.revs) > 0 {
		return w.revs[len(w.revs)-1].number
	}
	return 0
}

// revision is a ReplicaSet, or a StatefulSet revision.
type revision struct {
	name, hash string
	number     int64
	template   corev1.PodTemplateSpec
	replicas   int32 // ReplicaSet spec.replicas
	pods       []*pod
	uid        types.UID
	created    time.Time
	dirty      bool // the ReplicaSet needs writing
	exists     bool // the ReplicaSet object was created
}

// pod is one simulated pod.
type pod struct {
	name         string
	ordinal      int
	uid          types.UID
	created      time.Time
	readyAt      time.Time // when it becomes ready; zero when it never will
	ready        bool
	failure      string // ImagePullBackOff, CrashLoopBackOff, ""
	restarts     int32
	digest       string
	unreadyUntil time.Time // a probe failure in progress
	dirty        bool
	exists       bool
}

func (p *pod) isReady(now time.Time) bool { return p.ready && !now.Before(p.unreadyUntil) }

func (w *workload) ns() string   { return w.app.ns }
func (w *workload) name() string { return w.app.name }

// current returns the revision running the workload's template, or nil.
func (w *workload) current() *revision {
	h := templateHash(w.template)
	for i := len(w.revs) - 1; i >= 0; i-- {
		if w.revs[i].hash == h {
			return w.revs[i]
		}
	}
	return nil
}

func (r *revision) readyPods(now time.Time) int32 {
	var n int32
	for _, p := range r.pods {
		if p.isReady(now) {
			n++
		}
	}
	return n
}

// replicaSetObject renders a revision as the ReplicaSet the deployment
// controller would have made.
func (w *workload) replicaSetObject(r *revision, now time.Time) *appsv1.ReplicaSet {
	tpl := *r.template.DeepCopy()
	tpl.Labels[appsv1.DefaultDeploymentUniqueLabelKey] = r.hash
	sel := map[string]string{appsv1.DefaultDeploymentUniqueLabelKey: r.hash}
	for k, v := range selectorLabels(w.app) {
		sel[k] = v
	}
	ready := r.readyPods(now)
	n := r.replicas
	return &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{
			Name: r.name, Namespace: w.ns(), UID: r.uid, Labels: tpl.Labels,
			CreationTimestamp: metav1.NewTime(r.created),
			Annotations: map[string]string{
				revisionAnnotation:                          fmt.Sprint(r.number),
				"deployment.kubernetes.io/desired-replicas": fmt.Sprint(w.replicas),
				"deployment.kubernetes.io/max-replicas":     fmt.Sprint(w.replicas + 1),
			},
			OwnerReferences: []metav1.OwnerReference{ownerRef("apps/v1", "Deployment", w.name(), w.uid)},
		},
		Spec: appsv1.ReplicaSetSpec{Replicas: &n, Selector: &metav1.LabelSelector{MatchLabels: sel}, Template: tpl, MinReadySeconds: 10},
		Status: appsv1.ReplicaSetStatus{
			Replicas: int32(len(r.pods)), FullyLabeledReplicas: int32(len(r.pods)),
			ReadyReplicas: ready, AvailableReplicas: ready, ObservedGeneration: 1,
		},
	}
}

// podObject renders a pod with the status a kubelet would report.
func (w *workload) podObject(r *revision, p *pod, now time.Time) *corev1.Pod {
	labels := map[string]string{}
	for k, v := range r.template.Labels {
		labels[k] = v
	}
	owner := ownerRef("apps/v1", "ReplicaSet", r.name, r.uid)
	if w.kind == model.KindStatefulSet {
		labels[appsv1.ControllerRevisionHashLabelKey] = r.name
		labels[appsv1.StatefulSetPodNameLabel] = p.name
		owner = ownerRef("apps/v1", "StatefulSet", w.name(), w.uid)
	} else {
		labels[appsv1.DefaultDeploymentUniqueLabelKey] = r.hash
	}
	c := r.template.Spec.Containers[0]
	ready := p.isReady(now)
	cs := corev1.ContainerStatus{Name: c.Name, Image: c.Image, Ready: ready, RestartCount: p.restarts, Started: ptr(p.failure == "")}
	phase := corev1.PodRunning
	started := metav1.NewTime(p.created.Add(time.Second))
	switch p.failure {
	case "ImagePullBackOff":
		phase = corev1.PodPending
		cs.State.Waiting = &corev1.ContainerStateWaiting{Reason: "ImagePullBackOff",
			Message: fmt.Sprintf("Back-off pulling image %q: not found: manifest unknown", c.Image)}
	case "CrashLoopBackOff":
		cs.ImageID = imageDigestRef(c.Image, p.digest)
		cs.State.Waiting = &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff",
			Message: fmt.Sprintf("back-off 40s restarting failed container=%s pod=%s", c.Name, p.name)}
		cs.LastTerminationState.Terminated = &corev1.ContainerStateTerminated{ExitCode: 1, Reason: "Error", FinishedAt: metav1.NewTime(now)}
	default:
		cs.ImageID = imageDigestRef(c.Image, p.digest)
		cs.State.Running = &corev1.ContainerStateRunning{StartedAt: started}
	}
	readyStatus := corev1.ConditionFalse
	if ready {
		readyStatus = corev1.ConditionTrue
	}
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: p.name, Namespace: w.ns(), UID: p.uid, Labels: labels,
			CreationTimestamp: metav1.NewTime(p.created), OwnerReferences: []metav1.OwnerReference{owner}},
		Spec: *r.template.Spec.DeepCopy(),
		Status: corev1.PodStatus{
			Phase: phase, PodIP: podIP(p.uid), StartTime: &started,
			Conditions: []corev1.PodCondition{
				{Type: corev1.PodScheduled, Status: corev1.ConditionTrue},
				{Type: corev1.ContainersReady, Status: readyStatus},
				{Type: corev1.PodReady, Status: readyStatus},
			},
			ContainerStatuses: []corev1.ContainerStatus{cs},
		},
	}
}

func imageDigestRef(image, digest string) string {
	if digest == "" {
		return ""
	}
	repo := image
	if i := lastColonAfterSlash(image); i >= 0 {
		repo = image[:i]
	}
	return repo + "@" + digest
}

// lastColonAfterSlash is the index of the colon before an image's tag, or -1.
func lastColonAfterSlash(s string) int {
	if i := strings.LastIndexByte(s, ':'); i > strings.LastIndexByte(s, '/') {
		return i
	}
	return -1
}

func podIP(uid types.UID) string {
	var h uint32
	for _, c := range []byte(uid) {
		h = h*31 + uint32(c)
	}
	return fmt.Sprintf("10.%d.%d.%d", 40+h%8, (h>>8)%256, 2+(h>>16)%250)
}
