package kube

import (
	"context"
	"fmt"
	"io"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/kube/podlogs"
	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/logbuf"
)

// StreamLogs copies the logs of the App's workload's pods to w, line by
// line, each line prefixed "[pod] " when there are several pods: one LIST
// of the pods (kept only when a controller reference ties them to the
// workload, as for RunningDigests), then one pods/log stream per pod, all at
// once. w should be a terminal-safe writer (the logs are hostile text).
func (f *Fleet) StreamLogs(ctx context.Context, key model.Key, opts podlogs.Options, w io.Writer) error {
	c, mine, pick, err := f.appPods(ctx, key)
	if err != nil {
		return err
	}
	open := func(ctx context.Context, pod string, lo *corev1.PodLogOptions) (io.ReadCloser, error) {
		rc, err := c.clients.Kube.CoreV1().Pods(key.Namespace).GetLogs(pod, lo).Stream(ctx)
		if err != nil {
			return nil, c.refusal(ctx, err, "get pods/log", key.Namespace)
		}
		return rc, nil
	}
	return podlogs.Stream(ctx, mine, opts, pick, open, w)
}

// LogPods lists the pods of the App's workload for the board's log view
// (one LIST, as StreamLogs), sorted by name.
func (f *Fleet) LogPods(ctx context.Context, key model.Key) ([]model.LogPod, error) {
	_, pods, pick, err := f.appPods(ctx, key)
	if err != nil {
		return nil, err
	}
	return podlogs.Describe(pods, pick), nil
}

// OpenLog starts one pods/log request (GET .../pods/NAME/log with the
// request's container, previous, follow and tailLines) and feeds its lines
// to the returned feed until the stream ends or ctx is cancelled, which
// closes the request. The pod must be one of the App's: one GET of it checks
// its controller first. An error opening the stream (forbidden, no previous
// instance) is returned at once.
func (f *Fleet) OpenLog(ctx context.Context, key model.Key, req model.LogRequest) (*logbuf.Feed, error) {
	c, _, _, owners, err := f.podOwnersOf(key)
	if err != nil {
		return nil, err
	}
	pods := c.clients.Kube.CoreV1().Pods(key.Namespace)
	p, err := pods.Get(ctx, req.Pod, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return nil, fmt.Errorf("pod %s is gone (replaced?): pick again", req.Pod)
	case err != nil:
		return nil, c.refusal(ctx, err, "get pods", key.Namespace)
	case !ownedBy(p, owners):
		return nil, fmt.Errorf("pod %s is not one of %s/%s's pods", req.Pod, key.Namespace, key.Name)
	}
	lo := &corev1.PodLogOptions{Container: req.Container, Previous: req.Previous, Follow: req.Follow}
	if req.Tail >= 0 {
		tail := req.Tail
		lo.TailLines = &tail
	}
	rc, err := pods.GetLogs(req.Pod, lo).Stream(ctx)
	if err != nil {
		return nil, fmt.Errorf("logs of pod %s: %w", req.Pod, c.refusal(ctx, err, "get pods/log", key.Namespace))
	}
	return podlogs.Feed(ctx, rc, req.MaxLines), nil
}

// appPods is one LIST of the pods of the App's workload, kept only when a
// controller reference ties them to the workload (as for RunningDigests),
// and how to pick a pod's App container.
func (f *Fleet) appPods(ctx context.Context, key model.Key) (*cluster, []*corev1.Pod, func(*corev1.Pod) string, error) {
	c, app, we, owners, err := f.podOwnersOf(key)
	if err != nil {
		return nil, nil, nil, err
	}
	pods, err := c.clients.Kube.CoreV1().Pods(key.Namespace).List(ctx, metav1.ListOptions{LabelSelector: we.Selector})
	if err != nil {
		return nil, nil, nil, c.refusal(ctx, err, "list pods", key.Namespace)
	}
	var mine []*corev1.Pod
	for i := range pods.Items {
		if p := &pods.Items[i]; ownedBy(p, owners) {
			mine = append(mine, p)
		}
	}
	if len(mine) == 0 {
		return nil, nil, nil, fmt.Errorf("%s %s/%s has no pods", we.W.Kind, key.Namespace, key.Name)
	}
	return c, mine, podlogs.AppContainer(app), nil
}

// podOwnersOf is the App, its workload (with a pod selector) and the
// controllers its pods must name, from the cache.
func (f *Fleet) podOwnersOf(key model.Key) (*cluster, model.AppObject, *wire.WorkloadEntry, podOwnerSet, error) {
	c, s, app, err := f.eventTarget(key)
	if err != nil {
		return nil, app, nil, podOwnerSet{}, err
	}
	we := c.workloadEntry(s, key, app.Role)
	if we == nil || we.Selector == "" {
		return nil, app, nil, podOwnerSet{}, fmt.Errorf("app %s/%s has no workload with a pod selector: %w", key.Namespace, key.Name, ErrNoWorkload)
	}
	return c, app, we, podOwners(s, key, we), nil
}

// refusal words a failed request, naming the identity when Kubernetes refused.
func (c *cluster) refusal(ctx context.Context, err error, what, ns string) error {
	if apierrors.IsForbidden(err) {
		c.whoAmI(ctx)
		return fmt.Errorf("%s: Kubernetes refused: %s may not %s in namespace %s: %w", what, c.identity(), what, ns, apiErr(err))
	}
	return fmt.Errorf("%s: %w", what, apiErr(err))
}
