package kube

import (
	"context"
	"errors"
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/imageref"
)

// ErrNoWorkload is wrapped by RunningDigests when the App has no workload.
var ErrNoWorkload = errors.New("no workload")

// RunningDigests reads, on demand, the registry digests the App's pods run:
// one LIST of the pods matching the workload's selector (from the cache),
// kept only when a controller ownerReference ties them to the workload (one
// of the Deployment's ReplicaSets, or the StatefulSet), since a selector
// alone also matches strays. For each pod the App's container (the one
// running spec.image.repository, else the first) gives its
// status.containerStatuses[].imageID. The answer counts the pods found and
// those whose imageID names no registry digest (a local image ID, or none
// yet: they cannot be compared with the registry), and lists the distinct
// digests the others run, sorted, as "sha256:…". Running pods are never cached (memory at 10,000 Apps), hence a
// read per call: the detail view asks, the board's rows never do.
func (f *Fleet) RunningDigests(ctx context.Context, key model.Key) (model.PodDigests, error) {
	c := f.byName[key.Cluster]
	switch {
	case c == nil:
		return model.PodDigests{}, fmt.Errorf("cluster %q is not on the board", key.Cluster)
	case !c.isSynced():
		return model.PodDigests{}, fmt.Errorf("cluster %s is still syncing", key.Cluster)
	}
	s := c.scopeFor(key.Namespace)
	if s == nil {
		return model.PodDigests{}, fmt.Errorf("namespace %s is not watched on cluster %s", key.Namespace, key.Cluster)
	}
	app, ok := appOf(s, key)
	if !ok {
		app, ok = c.chartApp(key) // a chart-plane row: its Application's Deployment
	}
	if !ok {
		return model.PodDigests{}, fmt.Errorf("app %s/%s is not on cluster %s", key.Namespace, key.Name, key.Cluster)
	}
	we := c.workloadEntry(s, key, app.Role)
	if we == nil {
		want := model.ExpectedKind(app.Role)
		if want == model.KindNone {
			return model.PodDigests{}, fmt.Errorf("role \"%s\" makes no workload, so no pods: %w", app.Role, ErrNoWorkload)
		}
		return model.PodDigests{}, fmt.Errorf("%s %s/%s does not exist: %w", want, key.Namespace, key.Name, ErrNoWorkload)
	}
	what := fmt.Sprintf("%s %s/%s", we.W.Kind, key.Namespace, key.Name)
	if we.Selector == "" {
		return model.PodDigests{}, fmt.Errorf("%s has no usable pod selector", what)
	}
	owners := podOwners(s, key, we)
	pods, err := c.clients.Kube.CoreV1().Pods(key.Namespace).List(ctx, metav1.ListOptions{LabelSelector: we.Selector})
	switch {
	case apierrors.IsForbidden(err):
		c.whoAmI(ctx) // names the identity in the refusal (asked once per cluster)
		return model.PodDigests{}, fmt.Errorf("list pods of %s: Kubernetes refused: %s may not list pods in namespace %s: %w",
			what, c.identity(), key.Namespace, apiErr(err))
	case err != nil:
		return model.PodDigests{}, fmt.Errorf("list pods of %s: %w", what, apiErr(err))
	}
	declared, declaredErr := imageref.Parse(app.ImageRepository)
	var out model.PodDigests
	for i := range pods.Items {
		p := &pods.Items[i]
		if !ownedBy(p, owners) || p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
			continue
		}
		out.Pods++
		id := appImageID(p, declared, declaredErr == nil && declared.Repository != "")
		switch d := model.RepoDigest(id); {
		case d == "":
			out.NoDigest++
		case !slices.Contains(out.Digests, d):
			out.Digests = append(out.Digests, d)
		}
	}
	slices.Sort(out.Digests)
	return out, nil
}

// appOf is the cached App (or Service) of a row.
func appOf(s *scope, k model.Key) (model.AppObject, bool) {
	ae, _ := s.get("apps", k.Namespace, k.Name).(*wire.AppEntry)
	if ae == nil {
		ae, _ = s.get("services", k.Namespace, k.Name).(*wire.AppEntry)
	}
	if ae == nil {
		return model.AppObject{}, false
	}
	return ae.App, true
}

// podOwnerSet is the controller a pod of the workload must name: kind and UIDs.
type podOwnerSet struct {
	kind string
	uids map[string]bool
}

// podOwners: a Deployment's pods belong to its ReplicaSets (from the cache,
// every set it controls: during a rollout old and new pods both run), a
// StatefulSet's to the set itself.
func podOwners(s *scope, k model.Key, we *wire.WorkloadEntry) podOwnerSet {
	o := podOwnerSet{kind: "ReplicaSet", uids: map[string]bool{}}
	if we.W.Kind == model.KindStatefulSet {
		o.kind = "StatefulSet"
		if we.W.UID != "" { // a reference without a UID ties nothing
			o.uids[we.W.UID] = true
		}
		return o
	}
	for _, obj := range s.byOwner("replicasets", k.Namespace, k.Name) {
		if rs, ok := obj.(*wire.PodSetEntry); ok && rs.UID != "" {
			o.uids[string(rs.UID)] = true
		}
	}
	return o
}

func ownedBy(p *corev1.Pod, o podOwnerSet) bool {
	ref := metav1.GetControllerOfNoCopy(p)
	return ref != nil && ref.Kind == o.kind && o.uids[string(ref.UID)]
}

// appImageID is the imageID of the pod's container running the App's
// repository, else of its first container ("" when not reported yet).
func appImageID(p *corev1.Pod, declared imageref.Image, match bool) string {
	if len(p.Spec.Containers) == 0 {
		return ""
	}
	name := p.Spec.Containers[0].Name
	if match {
		for _, c := range p.Spec.Containers {
			if im, err := imageref.Parse(c.Image); err == nil && im.SameRepository(declared) {
				name = c.Name
				break
			}
		}
	}
	for _, st := range p.Status.ContainerStatuses {
		if st.Name == name {
			return st.ImageID
		}
	}
	return ""
}
