package podwatch

import (
	"context"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8swatch "k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	"github.com/hanzoai/driftboard/model"
)

// fakeHost records what the set asks of its cluster; its informers list
// nothing and watch a fake that never fires.
type fakeHost struct {
	mu      sync.Mutex
	denied  string // a namespace where pods may not be listed
	started []string
	forgot  []string
	notes   map[string]string
	marked  []model.Key
}

func (h *fakeHost) PodsAllowed(ns string) bool { return ns != h.denied }

func (h *fakeHost) NewInformer(id string, _ model.Key, _ string) (cache.SharedIndexInformer, error) {
	h.mu.Lock()
	h.started = append(h.started, id)
	h.mu.Unlock()
	lw := &cache.ListWatch{
		ListWithContextFunc: func(context.Context, metav1.ListOptions) (runtime.Object, error) {
			return &corev1.PodList{}, nil
		},
		WatchFuncWithContext: func(context.Context, metav1.ListOptions) (k8swatch.Interface, error) {
			return k8swatch.NewFake(), nil
		},
	}
	return cache.NewSharedIndexInformer(lw, &corev1.Pod{}, 0, nil), nil
}

func (h *fakeHost) Forget(id string) { h.forgot = append(h.forgot, id) }
func (h *fakeHost) SetNote(topic, text string) {
	if h.notes == nil {
		h.notes = map[string]string{}
	}
	h.notes[topic] = text
}
func (h *fakeHost) MarkRows(keys []model.Key) { h.marked = append(h.marked, keys...) }

// At most the bound of watches run; a row beyond it waits, said in the
// cluster's notice, and is marked again as soon as a watch is free.
func TestSetBoundsWatchesAndFreesThemForTheWaiting(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := &fakeHost{denied: "locked"}
	p := New(h, 1)
	api, web := model.Key{Cluster: "c", Namespace: "hanzo", Name: "api"}, model.Key{Cluster: "c", Namespace: "hanzo", Name: "web"}

	p.Want(api, "app=api", true)
	if run, wait := p.Count(); run != 0 || wait != 1 {
		t.Fatalf("before Start: %d running, %d waiting; want 0, 1", run, wait)
	}
	p.Start(ctx)
	p.Want(api, "app=api", true)
	p.Want(web, "app=web", true)
	if run, wait := p.Count(); run != 1 || wait != 1 || !p.Waiting(web) {
		t.Fatalf("%d running, %d waiting (web waiting: %v); want 1, 1, true", run, wait, p.Waiting(web))
	}
	if note := h.notes["pods"]; !strings.HasPrefix(note, "1 unready workloads wait for a pod watch (at most 1 at once)") {
		t.Errorf("notice %q", note)
	}
	if _, watched := p.Pods(api); !watched {
		t.Error("api is not watched")
	}

	p.Want(api, "app=api", false) // healthy again: its watch is free for web
	if len(h.forgot) != 1 || h.forgot[0] != "hanzo/pods of api" {
		t.Errorf("forgotten informers %v", h.forgot)
	}
	if len(h.marked) != 1 || h.marked[0] != web {
		t.Errorf("marked %v, want web alone", h.marked)
	}
	p.Want(web, "app=web", true) // web's rebuild asks again
	if _, watched := p.Pods(web); !watched {
		t.Error("web is not watched once a watch was free")
	}
	if h.notes["pods"] != "" {
		t.Errorf("notice still %q", h.notes["pods"])
	}

	locked := model.Key{Cluster: "c", Namespace: "locked", Name: "db"}
	p.Want(locked, "app=db", true)
	if run, wait := p.Count(); run != 1 || wait != 0 {
		t.Errorf("pods not listable: %d running, %d waiting; want 1, 0", run, wait)
	}
	if n := len(p.Listed()); n != 1 {
		t.Errorf("%d watches to wait for, want 1", n)
	}
}
