package demo

import (
	"context"
	"math/rand/v2"
	"sort"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	"github.com/hanzoai/driftboard/internal/demo/demogithub"
)

const (
	tickEvery         = 250 * time.Millisecond // simulated; the loop's heartbeat
	clearActionsEvery = 200                    // ticks between dropping the fakes' call records
)

// sim runs the simulated controllers, the operator and the scripted fleet
// events. One goroutine (run) owns every field except the queue.
type sim struct {
	quiet     bool // no scripted events (Options.Quiet)
	plan      *plan
	clusters  map[string]*fakeCluster
	workloads map[string]*workload // by cluster/ns/name
	order     []*workload          // fixed order, for determinism
	apps      map[string]*appPlan  // by cluster/ns/name
	appKeys   map[string]string    // last App status written, by key
	rng       *rand.Rand           // objects: versions, pod names, timings
	scriptRng *rand.Rand           // the scripted events, apart so pod churn does not shift them
	speed     float64
	now       func() time.Time
	reg       *registry
	rel       *Releases
	nextEvent time.Time
	ticks     int
	journal   *journal
	gh        *demogithub.GitHub // the demo's GitHub (promotion.go)

	mu    sync.Mutex
	queue map[string]bool // "wl:<key>" or "app:<key>", from the informers
	wake  chan struct{}

	informers sync.WaitGroup // the simulator's own, until the context ends
}

func (s *sim) scale(d time.Duration) time.Duration {
	return max(time.Duration(float64(d)/s.speed), time.Millisecond)
}

func (s *sim) enqueue(k string) {
	s.mu.Lock()
	s.queue[k] = true
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *sim) takeQueue() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	keys := make([]string, 0, len(s.queue))
	for k := range s.queue {
		keys = append(keys, k)
	}
	clear(s.queue)
	sort.Strings(keys)
	return keys
}

// watch starts the simulator's own informers: spec changes of workloads
// (a restart's patch, the operator's new image) and of Apps (a git bump)
// reach it the way they reach a controller.
func (s *sim) watch(ctx context.Context) error {
	var synced []cache.InformerSynced
	onGeneration := func(prefix, cluster string) cache.ResourceEventHandlerFuncs {
		return cache.ResourceEventHandlerFuncs{UpdateFunc: func(old, cur any) {
			om, ok1 := old.(metav1.Object)
			cm, ok2 := cur.(metav1.Object)
			if ok1 && ok2 && om.GetGeneration() != cm.GetGeneration() {
				s.enqueue(prefix + cluster + "/" + cm.GetNamespace() + "/" + cm.GetName())
			}
		}}
	}
	for _, name := range clusterNames {
		fc := s.clusters[name]
		if fc == nil {
			continue
		}
		apps := fc.kube.AppsV1()
		for _, w := range []struct {
			lw  *cache.ListWatch
			obj runtime.Object
		}{
			{listWatch(apps.Deployments("")), &appsv1.Deployment{}},
			{listWatch(apps.StatefulSets("")), &appsv1.StatefulSet{}},
		} {
			has, err := s.inform(ctx, cache.ToListWatcherWithWatchListSemantics(w.lw, fc.kube), w.obj, onGeneration("wl:", name))
			if err != nil {
				return err
			}
			synced = append(synced, has)
		}
		for _, gvr := range []schema.GroupVersionResource{appsGVR, servicesGVR} {
			lw := cache.ToListWatcherWithWatchListSemantics(listWatch(fc.dyn.Resource(gvr)), fc.dyn)
			has, err := s.inform(ctx, lw, &unstructured.Unstructured{}, onGeneration("app:", name))
			if err != nil {
				return err
			}
			synced = append(synced, has)
		}
	}
	if !cache.WaitForCacheSync(ctx.Done(), synced...) {
		return ctx.Err()
	}
	return nil
}

// run is the simulator's loop; it returns when ctx ends.
func (s *sim) run(ctx context.Context) {
	t := time.NewTicker(s.scale(tickEvery))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-s.wake:
		}
		s.tick(ctx)
	}
}

func (s *sim) tick(ctx context.Context) {
	now := s.now()
	for _, k := range s.takeQueue() {
		switch {
		case len(k) > 3 && k[:3] == "wl:":
			if w := s.workloads[k[3:]]; w != nil {
				s.refresh(ctx, w, now)
			}
		case len(k) > 4 && k[:4] == "app:":
			s.reconcileApp(ctx, k[4:], now)
		}
	}
	for _, w := range s.order {
		if now.Before(w.nextStep) {
			continue
		}
		s.step(w, now)
		w.nextStep = now.Add(s.scale(rolloutStep))
		s.flush(ctx, w, now)
	}
	if !s.quiet {
		s.script(ctx, now)
	}
	s.rel.tick(now)
	s.promotionsTick(ctx, now)
	if s.ticks++; s.ticks%clearActionsEvery == 0 {
		for _, fc := range s.clusters {
			fc.clearActions()
		}
	}
}

// shutdown stops the simulator's informers (after ctx ended).
func (s *sim) shutdown() {
	s.informers.Wait()
}

// inform runs one informer until ctx ends. Not client-go's informer
// factories: they link an informer for every API group into the binary.
func (s *sim) inform(ctx context.Context, lw cache.ListerWatcher, obj runtime.Object, h cache.ResourceEventHandler) (cache.InformerSynced, error) {
	inf := cache.NewSharedIndexInformer(lw, obj, 0, cache.Indexers{})
	if _, err := inf.AddEventHandler(h); err != nil {
		return nil, err
	}
	s.informers.Go(func() { inf.RunWithContext(ctx) })
	return inf.HasSynced, nil
}

// listWatch lists and watches through one resource's client.
func listWatch[L runtime.Object](c interface {
	List(context.Context, metav1.ListOptions) (L, error)
	Watch(context.Context, metav1.ListOptions) (watch.Interface, error)
}) *cache.ListWatch {
	return &cache.ListWatch{
		ListWithContextFunc:  func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return c.List(ctx, o) },
		WatchFuncWithContext: c.Watch,
	}
}
