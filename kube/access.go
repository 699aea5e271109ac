package kube

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hanzoai/driftboard/model"
)

// ErrCRDMissing is the failed reason of a cluster without the App CRD.
//
//lint:ignore ST1005 "App" is the kind's name, shown to the user as is.
var ErrCRDMissing = errors.New("App CRD not installed (apps.hanzo.ai/v1 is not served)")

// required resources make a scope; optional ones only add detail.
var (
	requiredResources = []string{"apps", "deployments", "statefulsets", "replicasets"}
	optionalResources = []string{"pods"}
)

// discover decides what to watch: everything cluster-wide when the identity
// may list it, else per namespace (those it may read). It returns the plan
// (namespace → resources allowed) and notices for the board.
func (c *cluster) discover(ctx context.Context) (map[string]map[string]bool, []string, error) {
	resources := slices.Concat(requiredResources, optionalResources)
	switch served, err := c.hanzoResources(); {
	case unreachable(err): // not the namespaces' fault, as the probes below would read
		return nil, nil, fmt.Errorf("discover hanzo.ai/v1: %w", apiErr(err))
	case err == nil && !served["apps"]:
		return nil, nil, ErrCRDMissing
	case err == nil && served["services"]:
		resources = append(resources, "services")
	}

	var notices []string
	namespaces, explicit := c.fleet.opts.Namespaces, true
	discovered := len(namespaces) == 0 // not named by the user: follow what exists
	if discovered {
		res := c.probeAll(ctx, "", resources)
		if err := res["apps"]; err != nil && !apierrors.IsForbidden(err) {
			if apierrors.IsNotFound(err) {
				return nil, nil, ErrCRDMissing
			}
			return nil, nil, fmt.Errorf("list apps.hanzo.ai: %w", apiErr(err))
		}
		if allowed, ok := allAllowed(res); ok {
			return map[string]map[string]bool{"": allowed}, nil, nil
		}
		var err error
		namespaces, explicit, err = c.candidateNamespaces(ctx)
		if err != nil {
			return nil, nil, err
		}
	}

	plan := map[string]map[string]bool{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	skipped := 0
	for _, ns := range namespaces {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			allowed, notice := c.probeNamespace(ctx, ns, resources, explicit)
			mu.Lock()
			defer mu.Unlock()
			if notice != "" {
				notices = append(notices, notice)
			}
			if allowed == nil {
				skipped++
				return
			}
			plan[ns] = allowed
		})
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	sort.Strings(notices)
	if !explicit && skipped > 0 {
		notices = append(notices, fmt.Sprintf("%d namespaces not readable by this identity (skipped)", skipped))
	}
	if len(plan) == 0 {
		return nil, notices, fmt.Errorf("no readable namespace with Apps (%s)", strings.Join(notices, "; "))
	}
	switch {
	case discovered && explicit: // first: the header shows as many as fit
		notices = append([]string{NotFollowingNamespaces}, notices...)
	case discovered:
		c.follow = newNSFollow(resources, namespaces)
	}
	return plan, notices, nil
}

// unreachable tells an error of the request itself (refused, reset, TLS,
// timeout: the HTTP client's *url.Error) from one the server answered.
func unreachable(err error) bool {
	var ue *url.Error
	return errors.As(err, &ue)
}

// hanzoResources asks discovery which hanzo.ai/v1 resources are served. A
// discovery that knows nothing (404; client fakes) is not conclusive: the
// LIST probe decides then.
func (c *cluster) hanzoResources() (map[string]bool, error) {
	list, err := c.clients.Kube.Discovery().ServerResourcesForGroupVersion("hanzo.ai/v1")
	if err != nil {
		return nil, err
	}
	served := map[string]bool{}
	for _, r := range list.APIResources {
		served[r.Name] = true
	}
	return served, nil
}

func allAllowed(res map[string]error) (map[string]bool, bool) {
	allowed := map[string]bool{}
	for what, err := range res {
		if err == nil {
			allowed[what] = true
		}
	}
	for _, what := range requiredResources {
		if !allowed[what] {
			return nil, false
		}
	}
	return allowed, true
}

// candidateNamespaces lists namespaces, or falls back to the known platform
// namespaces plus the principal's tenant namespaces. explicit reports the
// fallback (its misses are worth a notice each).
func (c *cluster) candidateNamespaces(ctx context.Context) ([]string, bool, error) {
	list, err := c.clients.Kube.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
	if err == nil {
		names := make([]string, 0, len(list.Items))
		for _, ns := range list.Items {
			names = append(names, ns.Name)
		}
		return names, false, nil
	}
	if !apierrors.IsForbidden(err) {
		return nil, false, fmt.Errorf("list namespaces: %w", apiErr(err))
	}
	names := model.PlatformNamespaces()
	if pf := c.fleet.opts.Principal; pf != nil {
		if p := pf(); p != nil {
			for _, o := range append([]model.OrgRole{{Org: p.HomeOrg}}, p.Orgs...) {
				ns := model.TenantNamespace(o.Org)
				if o.Org != "" && o.Org != model.SuperAdminOrg && !slices.Contains(names, ns) {
					names = append(names, ns)
				}
			}
		}
	}
	return names, true, nil
}

// probeNamespace returns the resources readable in ns (nil when Apps are
// not) and a notice saying what is missing.
func (c *cluster) probeNamespace(ctx context.Context, ns string, resources []string, explicit bool) (map[string]bool, string) {
	if explicit {
		if _, err := c.clients.Kube.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{}); apierrors.IsNotFound(err) {
			return nil, fmt.Sprintf("namespace %s: not found", ns)
		}
	}
	res := c.probeAll(ctx, ns, resources)
	if err := res["apps"]; err != nil {
		if !explicit && apierrors.IsForbidden(err) {
			return nil, ""
		}
		return nil, fmt.Sprintf("namespace %s: %s", ns, errText(err))
	}
	allowed := map[string]bool{}
	var missing []string
	for what, err := range res {
		if err == nil {
			allowed[what] = true
		} else if slices.Contains(requiredResources, what) {
			missing = append(missing, what)
			c.deny(ns, what, err)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return allowed, fmt.Sprintf("namespace %s: cannot list %s (rows lack that detail)", ns, strings.Join(missing, ", "))
	}
	return allowed, ""
}

// probeAll tries a LIST with limit 1 of each resource in ns ("" = all).
func (c *cluster) probeAll(ctx context.Context, ns string, resources []string) map[string]error {
	res := make(map[string]error, len(resources))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, what := range resources {
		wg.Go(func() {
			err := c.probe(ctx, ns, what)
			mu.Lock()
			res[what] = err
			mu.Unlock()
		})
	}
	wg.Wait()
	return res
}

func (c *cluster) probe(ctx context.Context, ns, what string) error {
	o := metav1.ListOptions{Limit: 1}
	var err error
	switch what {
	case "apps":
		_, err = c.clients.Dynamic.Resource(appsGVR).Namespace(ns).List(ctx, o)
	case "services":
		_, err = c.clients.Dynamic.Resource(servicesGVR).Namespace(ns).List(ctx, o)
	case "deployments":
		_, err = c.clients.Kube.AppsV1().Deployments(ns).List(ctx, o)
	case "statefulsets":
		_, err = c.clients.Kube.AppsV1().StatefulSets(ns).List(ctx, o)
	case "replicasets":
		_, err = c.clients.Kube.AppsV1().ReplicaSets(ns).List(ctx, o)
	case "pods":
		o.FieldSelector = "status.phase=Pending"
		_, err = c.clients.Kube.CoreV1().Pods(ns).List(ctx, o)
	default:
		err = fmt.Errorf("unknown resource %q", what)
	}
	return err
}

// deny records why a resource may not be listed in ns, so rows say
// "cannot read Deployments in hanzo (forbidden)" rather than "not found".
func (c *cluster) deny(ns, what string, err error) {
	why := errText(err)
	if apierrors.IsForbidden(err) {
		why = "forbidden"
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.denied == nil {
		c.denied = map[string]string{}
	}
	c.denied[ns+"/"+what] = why
}

// unreadable is the observed stand-in for a workload whose kind this
// identity may not list in ns, nil when it may.
func (c *cluster) unreadable(s *scope, ns, name string, kind model.WorkloadKind) *model.Workload {
	what := map[model.WorkloadKind]string{model.KindDeployment: "deployments", model.KindStatefulSet: "statefulsets"}[kind]
	if what == "" {
		return nil
	}
	if _, watched := s.inf[what]; watched {
		return nil
	}
	c.mu.RLock()
	why := c.denied[ns+"/"+what]
	c.mu.RUnlock()
	if why == "" {
		why = "not listed"
	}
	return &model.Workload{Kind: kind, Name: name, Unreadable: fmt.Sprintf("cannot read %ss in %s (%s)", kind, ns, why)}
}
