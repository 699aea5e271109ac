package kube

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/model"
)

// maxLogLine bounds one line the board keeps; the rest of a longer line is
// read and dropped, so one endless line cannot exhaust memory either.
const maxLogLine = 16 << 10

// LogPods lists the pods of the App's workload for the board's log view
// (one LIST, as StreamLogs), sorted by name.
func (f *Fleet) LogPods(ctx context.Context, key model.Key) ([]model.LogPod, error) {
	_, pods, pick, err := f.appPods(ctx, key)
	if err != nil {
		return nil, err
	}
	out := make([]model.LogPod, 0, len(pods))
	for _, p := range pods {
		lp := model.LogPod{Name: p.Name, AppContainer: pick(p), Created: p.CreationTimestamp.Time, Ready: podReady(p)}
		for _, ct := range p.Spec.Containers {
			lp.Containers = append(lp.Containers, ct.Name)
		}
		for _, cs := range p.Status.ContainerStatuses {
			lp.Restarts += cs.RestartCount
			if w := cs.State.Waiting; w != nil && w.Reason != "" && lp.Waiting == "" {
				lp.Waiting = w.Reason
			}
		}
		out = append(out, lp)
	}
	slices.SortFunc(out, func(a, b model.LogPod) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// OpenLog starts one pods/log request (GET .../pods/NAME/log with the
// request's container, previous, follow and tailLines) and feeds its lines
// to the returned feed until the stream ends or ctx is cancelled, which
// closes the request. The pod must be one of the App's: one GET of it checks
// its controller first. An error opening the stream (forbidden, no previous
// instance) is returned at once.
func (f *Fleet) OpenLog(ctx context.Context, key model.Key, req model.LogRequest) (*model.LogFeed, error) {
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
	feed := model.NewLogFeed(req.MaxLines)
	go func() {
		defer rc.Close()
		feed.End(feedLines(ctx, rc, feed))
	}()
	return feed, nil
}

// feedLines pushes each line of r (without its newline, at most maxLogLine
// bytes of it) until EOF; the end of ctx is a normal end.
func feedLines(ctx context.Context, r io.Reader, feed *model.LogFeed) error {
	lines := newLogLines(r)
	for {
		line, cut, err := lines.next()
		switch {
		case err == io.EOF || (err != nil && ctx.Err() != nil):
			return nil
		case err != nil:
			return err
		}
		if line = trimCR(line); cut {
			line += lineCut
		}
		feed.Push(line)
	}
}
