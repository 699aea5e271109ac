package demo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/kubernetes/scheme"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	fakerest "k8s.io/client-go/rest/fake"

	"github.com/hanzoai/driftboard/kube"
)

// The demo's pods run no containers, so their logs are canned: written
// here from what the simulator knows of each pod (when it started, whether
// it crashes or never pulled its image), answered through pods/log as a
// kubelet would, errors included. The first line says they are canned. The
// client-go fake cannot do this itself: its GetLogs does not tell a
// reaction which pod is asked for.

// logClients is the fake clientset with pods/log served from canned logs.
type logClients struct {
	*fakeKube
	now func() time.Time
}

func withPodLogs(c *fakeKube, now func() time.Time) kube.TypedClients {
	return logClients{fakeKube: c, now: now}
}

func (c logClients) CoreV1() typedcorev1.CoreV1Interface {
	return logCore{CoreV1Interface: c.fakeKube.CoreV1(), c: c}
}

type logCore struct {
	typedcorev1.CoreV1Interface
	c logClients
}

func (l logCore) Pods(ns string) typedcorev1.PodInterface {
	return logPods{PodInterface: l.CoreV1Interface.Pods(ns), ns: ns, c: l.c}
}

type logPods struct {
	typedcorev1.PodInterface
	ns string
	c  logClients
}

// GetLogs answers from the pod as stored: the body is the canned log, or
// the error status a kubelet (through the API server) would give.
func (p logPods) GetLogs(name string, opts *corev1.PodLogOptions) *rest.Request {
	body, status := p.c.podLog(p.ns, name, opts)
	client := &fakerest.RESTClient{
		Client: fakerest.CreateHTTPClient(func(*http.Request) (*http.Response, error) {
			code, ct := http.StatusOK, "text/plain"
			if status != nil {
				st := status.ErrStatus
				st.Kind, st.APIVersion = "Status", "v1" // what the client decodes as an API error
				code, ct = int(st.Code), "application/json"
				body, _ = json.Marshal(st)
			}
			return &http.Response{StatusCode: code, Header: http.Header{"Content-Type": {ct}}, Body: io.NopCloser(bytes.NewReader(body))}, nil
		}),
		NegotiatedSerializer: scheme.Codecs.WithoutConversion(),
		GroupVersion:         corev1.SchemeGroupVersion,
		VersionedAPIPath:     fmt.Sprintf("/api/v1/namespaces/%s/pods/%s/log", p.ns, name),
	}
	return client.Request()
}

func (c logClients) podLog(ns, name string, opts *corev1.PodLogOptions) ([]byte, *apierrors.StatusError) {
	obj, err := c.Tracker().Get(podsGVR, ns, name)
	if err != nil {
		return nil, apierrors.NewNotFound(podsGVR.GroupResource(), name)
	}
	pod, ok := obj.(*corev1.Pod)
	if !ok || len(pod.Spec.Containers) == 0 {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("pod %s has no containers", name))
	}
	container := opts.Container
	if container == "" {
		container = pod.Spec.Containers[0].Name
	}
	var cs *corev1.ContainerStatus
	for i := range pod.Status.ContainerStatuses {
		if pod.Status.ContainerStatuses[i].Name == container {
			cs = &pod.Status.ContainerStatuses[i]
		}
	}
	switch {
	case cs == nil:
		return nil, apierrors.NewBadRequest(fmt.Sprintf("container %s is not valid for pod %s", container, name))
	case opts.Previous && cs.RestartCount == 0:
		return nil, apierrors.NewBadRequest(fmt.Sprintf("previous terminated container %q in pod %q not found", container, name))
	case !opts.Previous && cs.State.Waiting != nil && cs.State.Waiting.Reason == "ImagePullBackOff":
		return nil, apierrors.NewBadRequest(fmt.Sprintf("container %q in pod %q is waiting to start: trying and failing to pull image", container, name))
	}
	lines := cannedLog(pod, cs, opts.Previous, c.now())
	if t := opts.TailLines; t != nil && int(*t) < len(lines) {
		lines = lines[len(lines)-int(*t):]
	}
	return []byte(strings.Join(lines, "")), nil
}

// cannedLog is one container instance's log: a start-up, then either a
// crash (a crash-looping pod, and every previous instance) or a request log
// every few minutes until now (at most the last 40 entries).
func cannedLog(pod *corev1.Pod, cs *corev1.ContainerStatus, previous bool, now time.Time) []string {
	h := fnv.New32a()
	h.Write([]byte(pod.Name))
	seed := int(h.Sum32())
	start := pod.CreationTimestamp.Add(time.Second)
	crashing := cs.State.Waiting != nil && cs.State.Waiting.Reason == "CrashLoopBackOff"
	if crashing || previous {
		start = now.Add(-time.Duration(40+seed%50) * time.Second)
		if previous {
			start = start.Add(-5 * time.Minute)
		}
	}
	at := func(d time.Duration) string { return start.Add(d).UTC().Format(time.RFC3339) + " " }
	out := []string{
		at(0) + "[demo] canned log: the demo's pods run no containers; the simulator writes these lines\n",
		at(0) + "INFO  starting " + cs.Name + " image=" + cs.Image + "\n",
		at(time.Second) + "INFO  config loaded from /etc/" + cs.Name + "/config.yaml\n",
	}
	if crashing || previous {
		return append(out,
			at(2*time.Second)+"WARN  connect postgres://"+cs.Name+"-db:5432: connection refused (attempt 1 of 3)\n",
			at(4*time.Second)+"WARN  connect postgres://"+cs.Name+"-db:5432: connection refused (attempt 3 of 3)\n",
			at(5*time.Second)+"ERROR database unreachable: dial tcp 10.96.14.7:5432: connect: connection refused\n",
			at(5*time.Second)+"FATAL giving up; exit status 1\n")
	}
	out = append(out, at(2*time.Second)+"INFO  listening on :8080\n")
	step := time.Duration(2+seed%4) * time.Minute
	first := start.Add(step)
	if recent := now.Add(-40 * step); recent.After(first) {
		first = recent
	}
	for i, t := 0, first.Truncate(step); !t.After(now); i, t = i+1, t.Add(step) {
		if t.Before(start) {
			continue
		}
		ms := 3 + (seed+i*7)%40
		line := fmt.Sprintf("INFO  GET /healthz 200 %dms", ms)
		if (seed+i)%9 == 0 {
			line = fmt.Sprintf("WARN  GET /v1/%s/items 504 %dms: upstream timeout", cs.Name, 3000+ms)
		}
		out = append(out, t.UTC().Format(time.RFC3339)+" "+line+"\n")
	}
	return out
}
