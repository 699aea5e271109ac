package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/hanzoai/driftboard/internal/termtext"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
)

// targetFlags are the --env and --cluster of get, logs and restart, as
// parsed. --cluster is the old name of the global --context: here a
// kubeconfig context, where kubectl's --cluster names a cluster entry, so
// it is hidden and says so when used (targetCluster).
type targetFlags struct{ env, cluster string }

func (f *targetFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.env, "env", "", "environment of the App: main|test|dev (needed only when the name is in several envs)")
	cmd.Flags().StringVar(&f.cluster, "cluster", "", "deprecated: the same as --context")
	_ = cmd.Flags().MarkHidden("cluster")
	completeFixed(cmd, "env", "main", "test", "dev")
	_ = cmd.RegisterFlagCompletionFunc("cluster", func(c *cobra.Command, args []string, s string) ([]cobra.Completion, cobra.ShellCompDirective) {
		names, _ := kube.ContextNames(c.Flag("kubeconfig").Value.String())
		return names, cobra.ShellCompDirectiveNoFileComp
	})
}

// targetCluster is the context --cluster names (the rule: --context names
// kubeconfig contexts; --cluster is accepted as its old name, with a
// warning), "" without it.
func (a *app) targetCluster(f targetFlags) (string, error) {
	if f.cluster == "" {
		return "", nil
	}
	if len(a.opts.contexts) > 0 && !slices.Equal(a.opts.contexts, []string{f.cluster}) {
		return "", usageErr("--cluster is the old name of --context; name the context once, with --context")
	}
	fmt.Fprintln(a.streams.Err, "Warning: --cluster is deprecated: it names a kubeconfig context, not a kubeconfig cluster as kubectl's does; use --context "+termtext.Sanitize(f.cluster))
	return f.cluster, nil
}

// appTarget is one App as a person names it: APP, NAMESPACE/APP or
// -n NAMESPACE APP. The env comes from the namespace (model.Env); --env is
// needed only when the name alone is in several envs. envNamed says the
// person chose the env (by --env or a namespace) rather than the lookup.
type appTarget struct {
	name, namespace, cluster string
	env                      model.Env
	envNamed                 bool
}

// newTarget completes and validates the target from the argument and flags.
func (a *app) newTarget(arg string, f targetFlags) (appTarget, error) {
	t := appTarget{name: arg}
	var err error
	if t.cluster, err = a.targetCluster(f); err != nil {
		return t, err
	}
	if ns, name, ok := strings.Cut(arg, "/"); ok {
		t.namespace, t.name = ns, name
		if len(a.opts.namespaces) > 0 && !slices.Contains(a.opts.namespaces, ns) {
			return t, usageErr("%s names namespace %s but -n says %s; give the namespace once", arg, ns, strings.Join(a.opts.namespaces, ","))
		}
	} else if len(a.opts.namespaces) == 1 {
		t.namespace = a.opts.namespaces[0]
	}
	if name, tag, ok := strings.Cut(t.name, ":"); ok {
		return t, model.RefuseTagChange(name, tag)
	}
	if !isDNS1123Label(t.name) {
		return t, usageErr("%q is not an App name (lowercase letters, digits and '-', at most 63)", t.name)
	}
	if t.namespace != "" && !isDNS1123Label(t.namespace) {
		return t, usageErr("%q is not a namespace name (lowercase letters, digits and '-', at most 63)", t.namespace)
	}
	if f.env != "" {
		env, ok := model.ParseEnv(f.env)
		if !ok {
			return t, usageErr("--env must be main, test or dev, not %q", f.env)
		}
		t.env, t.envNamed = env, true
	}
	if t.namespace != "" {
		nsEnv := model.EnvOf(t.namespace)
		if t.envNamed && nsEnv != "" && nsEnv != t.env {
			return t, usageErr("namespace %s is env %s, not %s; drop --env or name the namespace of env %s", t.namespace, nsEnv, t.env, t.env)
		}
		if !t.envNamed {
			t.env, t.envNamed = nsEnv, true
		}
	}
	return t, nil
}

func isDNS1123Label(s string) bool { return len(validation.IsDNS1123Label(s)) == 0 }

// request narrows what is watched to what can hold the target: its cluster,
// its namespace, or the namespaces of a test or dev env (production also
// holds every tenant namespace, so it is not narrowed).
func (t appTarget) request(as *actor) fleetRequest {
	req := fleetRequest{as: as}
	if t.cluster != "" {
		req.contexts = []string{t.cluster}
	}
	switch {
	case t.namespace != "":
		req.namespaces = []string{t.namespace}
	case t.env != "" && !t.env.IsProduction():
		req.namespaces = t.env.Namespaces()
	}
	return req
}

// find picks the one row named by the target. Several matches are an
// error that lists them and says which flag or form tells them apart.
func (t appTarget) find(rows []*model.AppView) (*model.AppView, error) {
	var hits []*model.AppView
	for _, r := range rows {
		if r.App == t.name && (t.namespace == "" || r.Namespace == t.namespace) &&
			(t.env == "" || r.Env == t.env) && (t.cluster == "" || r.Cluster == t.cluster) {
			hits = append(hits, r)
		}
	}
	if len(hits) == 1 {
		return hits[0], nil
	}
	if len(hits) == 0 {
		return nil, fmt.Errorf("no App %q %s on the namespaces you may read; 'driftboard list' shows what is there", t.name, t.where())
	}
	var places []string
	var envs []model.Env
	for _, h := range hits {
		places = append(places, fmt.Sprintf("%s/%s (env %s, cluster %s)", h.Namespace, h.App, dash(h.Env), h.Cluster))
		if !slices.Contains(envs, h.Env) {
			envs = append(envs, h.Env)
		}
	}
	how := "name it as NAMESPACE/APP, and add --context when one namespace is on several clusters"
	if len(envs) > 1 {
		how = "choose with --env or name it as NAMESPACE/APP"
	}
	return nil, fmt.Errorf("the App %q is in several places: %s; %s", t.name, strings.Join(places, ", "), how)
}

func (t appTarget) where() string {
	var w []string
	if t.namespace != "" {
		w = append(w, "in namespace "+t.namespace)
	}
	if t.env != "" {
		w = append(w, "in env "+string(t.env))
	}
	if t.cluster != "" {
		w = append(w, "on cluster "+t.cluster)
	}
	if len(w) == 0 {
		return "in any env"
	}
	return strings.Join(w, " ")
}

// findApp is the one "find the app" step of get and restart: open the
// fleet for the target, wait for its first snapshot, pick the row. A
// cluster that failed while another answered is reported with a miss.
func (a *app) findApp(ctx context.Context, t appTarget, as *actor) (*kube.Fleet, *model.AppView, error) {
	fl, err := a.openFleet(ctx, t.request(as))
	if err != nil {
		return nil, nil, err
	}
	snap, syncErr := a.waitSnapshot(ctx, fl)
	if snap == nil {
		return nil, nil, syncErr
	}
	row, err := t.find(snap.Rows())
	if err != nil {
		return nil, nil, joinErr(err, syncErr)
	}
	return fl, row, nil
}

// readApp names the App from one argument and finds it as the kubeconfig
// identity: the read-only commands (get, logs) act as nobody.
func (a *app) readApp(ctx context.Context, arg string, f targetFlags) (*kube.Fleet, *model.AppView, error) {
	t, err := a.newTarget(arg, f)
	if err != nil {
		return nil, nil, err
	}
	return a.findApp(ctx, t, nil)
}

// oneApp is get's and logs' argument check, in words that say what to name
// (cobra's said "accepts 1 arg(s), received 0").
func oneApp(cmd *cobra.Command, args []string) error {
	switch len(args) {
	case 1:
		return nil
	case 0:
		return fmt.Errorf("%s needs the App: APP, NAMESPACE/APP or -n NAMESPACE APP", cmd.Name())
	}
	return fmt.Errorf("%s takes one App, not %d (%s)", cmd.Name(), len(args), strings.Join(args, " "))
}
