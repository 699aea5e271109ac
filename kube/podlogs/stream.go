// Package podlogs reads pods/log streams: lines bounded in length (one
// endless line cannot exhaust memory), copied to a writer with a pod's
// prefix, or fed to the board's log view. It opens no stream itself: the
// caller, which knows the cluster and the App's pods, hands it an Opener.
package podlogs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	corev1 "k8s.io/api/core/v1"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/imageref"
)

// Options choose what Stream prints.
type Options struct {
	Container string // "" is the App's container (the one running its repository, else the first)
	Previous  bool   // the crashed (previous) instance of the container
	Follow    bool   // keep streaming until ctx ends
	Tail      int64  // only the last Tail lines of each pod; < 0 is all
}

// Opener opens one pod's pods/log stream; its error says who refused.
type Opener func(ctx context.Context, pod string, lo *corev1.PodLogOptions) (io.ReadCloser, error)

// Stream copies the logs of pods to w, line by line, each line prefixed
// "[pod] " when there are several pods: one stream per pod, all at once.
// appContainer picks a pod's container when opts names none. w should be a
// terminal-safe writer (the logs are hostile text).
func Stream(ctx context.Context, pods []*corev1.Pod, opts Options, appContainer func(*corev1.Pod) string, open Opener, w io.Writer) error {
	var (
		mu   sync.Mutex // one line at a time on w
		wg   sync.WaitGroup
		errs = make([]error, len(pods))
	)
	for i, p := range pods {
		name := opts.Container
		if name == "" {
			name = appContainer(p)
		}
		if !slices.ContainsFunc(p.Spec.Containers, func(ct corev1.Container) bool { return ct.Name == name }) {
			errs[i] = fmt.Errorf("pod %s has no container %q", p.Name, name)
			continue
		}
		prefix := ""
		if len(pods) > 1 {
			prefix = "[" + p.Name + "] "
		}
		lo := &corev1.PodLogOptions{Container: name, Previous: opts.Previous, Follow: opts.Follow}
		if opts.Tail >= 0 {
			lo.TailLines = &opts.Tail
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = copyLog(ctx, p.Name, lo, open, prefix, w, &mu)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

func copyLog(ctx context.Context, pod string, lo *corev1.PodLogOptions, open Opener, prefix string, w io.Writer, mu *sync.Mutex) error {
	rc, err := open(ctx, pod, lo)
	if err != nil {
		return fmt.Errorf("logs of pod %s: %w", pod, err)
	}
	defer rc.Close()
	var werr error // the writer's: not the pod's log
	err = eachLine(ctx, rc, func(line string, cut bool) error {
		mu.Lock()
		_, werr = io.WriteString(w, prefix+withCut(line, cut)+"\n")
		mu.Unlock()
		return werr
	})
	if err != nil && werr == nil {
		return fmt.Errorf("logs of pod %s: %w", pod, err)
	}
	return err
}

// AppContainer picks a pod's container running the App's image repository,
// else its first.
func AppContainer(app model.AppObject) func(*corev1.Pod) string {
	declared, err := imageref.Parse(app.ImageRepository)
	match := err == nil && declared.Repository != ""
	return func(p *corev1.Pod) string { return appContainer(p, declared, match) }
}

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
