package podlogs

import (
	"context"
	"io"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/logbuf"
)

// maxLogLine bounds one line the board keeps; the rest of a longer line is
// read and dropped, so one endless line cannot exhaust memory either.
const maxLogLine = 16 << 10

// Describe lists pods for the board's log view, sorted by name, each with
// the container appContainer picks.
func Describe(pods []*corev1.Pod, appContainer func(*corev1.Pod) string) []model.LogPod {
	out := make([]model.LogPod, 0, len(pods))
	for _, p := range pods {
		lp := model.LogPod{Name: p.Name, AppContainer: appContainer(p), Created: p.CreationTimestamp.Time, Ready: podReady(p)}
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
	return out
}

func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// Feed feeds the lines of rc, which it closes, to a feed of at most
// maxLines lines until the stream ends or ctx is cancelled.
func Feed(ctx context.Context, rc io.ReadCloser, maxLines int) *logbuf.Feed {
	feed := logbuf.NewFeed(maxLines)
	go func() {
		defer rc.Close()
		feed.End(feedLines(ctx, rc, feed))
	}()
	return feed
}

// feedLines pushes each line of r (without its newline or carriage
// return) until EOF; the end of ctx is a normal end.
func feedLines(ctx context.Context, r io.Reader, feed *logbuf.Feed) error {
	return eachLine(ctx, r, func(line string, cut bool) error {
		feed.Push(withCut(trimCR(line), cut))
		return nil
	})
}

// eachLine calls fn with each line of r (without its newline, at most
// maxLogLine bytes of it, cut saying it was longer) until EOF or fn's error,
// which it returns as is; the end of ctx is a normal end.
func eachLine(ctx context.Context, r io.Reader, fn func(line string, cut bool) error) error {
	lines := newLogLines(r)
	for {
		line, cut, err := lines.next()
		switch {
		case err == io.EOF || (err != nil && ctx.Err() != nil):
			return nil
		case err != nil:
			return err
		}
		if err := fn(line, cut); err != nil {
			return err
		}
	}
}

// withCut marks a line cut at maxLogLine.
func withCut(line string, cut bool) string {
	if cut {
		return line + lineCut
	}
	return line
}
