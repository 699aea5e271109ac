package kube

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/imageref"
)

// LogOptions choose what StreamLogs prints.
type LogOptions struct {
	Container string // "" is the App's container (the one running its repository, else the first)
	Previous  bool   // the crashed (previous) instance of the container
	Follow    bool   // keep streaming until ctx ends
	Tail      int64  // only the last Tail lines of each pod; < 0 is all
}

// StreamLogs copies the logs of the App's workload's pods to w, line by
// line, each line prefixed "[pod] " when there are several pods: one LIST
// of the pods (kept only when a controller reference ties them to the
// workload, as for RunningDigests), then one pods/log stream per pod, all at
// once. w should be a terminal-safe writer (the logs are hostile text).
func (f *Fleet) StreamLogs(ctx context.Context, key model.Key, opts LogOptions, w io.Writer) error {
	c, mine, pick, err := f.appPods(ctx, key)
	if err != nil {
		return err
	}
	var (
		mu   sync.Mutex // one line at a time on w
		wg   sync.WaitGroup
		errs = make([]error, len(mine))
	)
	for i, p := range mine {
		name := opts.Container
		if name == "" {
			name = pick(p)
		}
		if !slices.ContainsFunc(p.Spec.Containers, func(ct corev1.Container) bool { return ct.Name == name }) {
			errs[i] = fmt.Errorf("pod %s has no container %q", p.Name, name)
			continue
		}
		prefix := ""
		if len(mine) > 1 {
			prefix = "[" + p.Name + "] "
		}
		lo := &corev1.PodLogOptions{Container: name, Previous: opts.Previous, Follow: opts.Follow}
		if opts.Tail >= 0 {
			lo.TailLines = &opts.Tail
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = c.copyLog(ctx, p.Namespace, p.Name, lo, prefix, w, &mu)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
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
	declared, perr := imageref.Parse(app.ImageRepository)
	match := perr == nil && declared.Repository != ""
	return c, mine, func(p *corev1.Pod) string { return appContainer(p, declared, match) }, nil
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

func (c *cluster) copyLog(ctx context.Context, ns, pod string, lo *corev1.PodLogOptions, prefix string, w io.Writer, mu *sync.Mutex) error {
	rc, err := c.clients.Kube.CoreV1().Pods(ns).GetLogs(pod, lo).Stream(ctx)
	if err != nil {
		return fmt.Errorf("logs of pod %s: %w", pod, c.refusal(ctx, err, "get pods/log", ns))
	}
	defer rc.Close()
	lines := newLogLines(rc)
	for {
		line, cut, err := lines.next()
		switch {
		case err == io.EOF || (err != nil && ctx.Err() != nil):
			return nil
		case err != nil:
			return fmt.Errorf("logs of pod %s: %w", pod, err)
		}
		if cut {
			line += lineCut
		}
		mu.Lock()
		_, werr := io.WriteString(w, prefix+line+"\n")
		mu.Unlock()
		if werr != nil {
			return werr
		}
	}
}

// refusal words a failed request, naming the identity when Kubernetes refused.
func (c *cluster) refusal(ctx context.Context, err error, what, ns string) error {
	if apierrors.IsForbidden(err) {
		c.whoAmI(ctx)
		return fmt.Errorf("%s: Kubernetes refused: %s may not %s in namespace %s: %w", what, c.identity(), what, ns, apiErr(err))
	}
	return fmt.Errorf("%s: %w", what, apiErr(err))
}

// appContainer is the pod's container running the App's repository, else
// its first.
func appContainer(p *corev1.Pod, declared imageref.Image, match bool) string {
	if len(p.Spec.Containers) == 0 {
		return ""
	}
	if match {
		for _, ct := range p.Spec.Containers {
			if im, err := imageref.Parse(ct.Image); err == nil && im.SameRepository(declared) {
				return ct.Name
			}
		}
	}
	return p.Spec.Containers[0].Name
}
