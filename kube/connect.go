package kube

import (
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/hanzoai/driftboard/kube/execcred"
	"github.com/hanzoai/driftboard/kube/wire"
	"github.com/hanzoai/driftboard/model"
)

// ConnectOptions choose the clusters, like kubectl's flags.
type ConnectOptions struct {
	Kubeconfig  string   // --kubeconfig; empty: $KUBECONFIG, then ~/.kube/config
	Contexts    []string // --context a,b; empty: the current context
	AllContexts bool     // --all-contexts
	QPS         float32  // default 100 (client-go's 5 makes the first list crawl)
	Burst       int      // default 200
	Compression Compression
	Now         func() time.Time
	Log         *slog.Logger // an account of each cluster (gzip or not; identity); nil: none
	// Plugins, when set, run the kubeconfig users' exec credential plugins
	// (the board: up front with the terminal, never onto its frame); nil
	// leaves them to client-go, as kubectl runs them.
	Plugins *execcred.Plugins
}

// InClusterName is the cluster name rows carry when running inside a pod.
const InClusterName = "in-cluster"

// KubeconfigFailure names the failed state of a kubeconfig that could not
// be read at all (no context was reached).
const KubeconfigFailure = "kubeconfig"

// Connect resolves the kubeconfig like kubectl (in-cluster config as the
// fallback) and makes clients per context. Contexts that cannot be opened
// come back as failed cluster states with the real error, so the board can
// start and say why instead of showing an empty fleet.
func Connect(opts ConnectOptions) ([]ClusterClients, []model.ClusterState) {
	return connect(opts)
}

var errNoKubeconfig = errors.New("no kubeconfig contexts (KUBECONFIG or ~/.kube/config)")

// loadingRules are kubectl's: the explicit path, else $KUBECONFIG, else
// ~/.kube/config.
func loadingRules(kubeconfig string) *clientcmd.ClientConfigLoadingRules {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	if kubeconfig != "" {
		rules.ExplicitPath = kubeconfig
	}
	return rules
}

// contextConfig is one context's client configuration as the kubeconfig
// gives it (its own credentials included).
type contextConfig struct {
	name     string
	authInfo string // the kubeconfig's user entry; "" in-cluster
	cfg      *rest.Config
	plugin   *execcred.Plugin // its exec credential plugin, when ConnectOptions.Plugins runs it
}

// config is the context's configuration with its plugin's credential got
// (up front, with the terminal while the board has not taken it); a plugin
// that failed is left for the requests to report, on the cluster's line.
func (c contextConfig) config() *rest.Config {
	if c.plugin == nil {
		return c.cfg
	}
	if _, err := c.plugin.Credential(true); err != nil {
		return c.cfg
	}
	cfg := c.cfg
	if cert, key := c.plugin.Certificate(); len(cert) > 0 {
		cfg = rest.CopyConfig(c.cfg)
		cfg.CertData, cfg.KeyData = cert, key
	}
	return cfg
}

// contextConfigs resolves the chosen contexts' configurations; contexts that
// cannot be resolved come back as failed states.
func contextConfigs(opts ConnectOptions) ([]contextConfig, []model.ClusterState) {
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	failed := func(name string, err error) model.ClusterState {
		return model.ClusterState{Name: name, Phase: model.ConnFailed, Since: now(), Reason: err.Error()}
	}
	rules := loadingRules(opts.Kubeconfig)
	raw, loadErr := rules.Load()
	if loadErr == nil && len(raw.Contexts) == 0 && opts.Kubeconfig == "" {
		loadErr = errNoKubeconfig
	}
	if loadErr != nil {
		if len(opts.Contexts) > 0 || opts.AllContexts || opts.Kubeconfig != "" {
			return nil, []model.ClusterState{failed(KubeconfigFailure, fmt.Errorf("load kubeconfig: %w", loadErr))}
		}
		cfg, err := rest.InClusterConfig()
		switch {
		case errors.Is(err, rest.ErrNotInCluster) && errors.Is(loadErr, errNoKubeconfig): // the usual case, in one line
			return nil, []model.ClusterState{failed(KubeconfigFailure, errors.New("no kubeconfig: $KUBECONFIG and ~/.kube/config name no context, and this is not a pod (no in-cluster config)"))}
		case err != nil:
			return nil, []model.ClusterState{failed(KubeconfigFailure, fmt.Errorf("load kubeconfig: %v; in-cluster config: %w", loadErr, err))}
		}
		return []contextConfig{{name: InClusterName, cfg: cfg}}, nil
	}

	names, err := contextNames(raw, opts)
	if err != nil {
		return nil, []model.ClusterState{failed(KubeconfigFailure, err)}
	}
	var out []contextConfig
	var states []model.ClusterState
	for _, name := range names {
		if raw.Contexts[name] == nil { // kubectl's words, not clientcmd's "invalid configuration: [...]"
			states = append(states, failed(name, missingContext(raw, name)))
			continue
		}
		cfg, err := clientcmd.NewNonInteractiveClientConfig(*raw, name, &clientcmd.ConfigOverrides{}, rules).ClientConfig()
		if err != nil {
			states = append(states, failed(name, fmt.Errorf("context %s: %w", name, err)))
			continue
		}
		cc := contextConfig{name: name, cfg: cfg}
		if kc := raw.Contexts[name]; kc != nil {
			cc.authInfo = kc.AuthInfo
		}
		if opts.Plugins != nil && cfg.ExecProvider != nil {
			if cc.plugin, err = opts.Plugins.For(name, cfg); err != nil {
				states = append(states, failed(name, fmt.Errorf("context %s: %w", name, err)))
				continue
			}
			cfg.ExecProvider = nil // run here, not by client-go
			cfg.Wrap(cc.plugin.Wrap)
		}
		out = append(out, cc)
	}
	return out, states
}

// connect is Connect: every context with its kubeconfig identity.
func connect(opts ConnectOptions) ([]ClusterClients, []model.ClusterState) {
	configs, states := contextConfigs(opts)
	var clients []ClusterClients
	for _, c := range configs {
		cc, err := NewClusterClients(c.name, c.config(), opts)
		if err != nil {
			states = append(states, failedState(opts, c.name, err))
			continue
		}
		clients = append(clients, cc)
	}
	return clients, states
}

func failedState(opts ConnectOptions, name string, err error) model.ClusterState {
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	return model.ClusterState{Name: name, Phase: model.ConnFailed, Since: now(), Reason: err.Error()}
}

func contextNames(raw *clientcmdapi.Config, opts ConnectOptions) ([]string, error) {
	switch {
	case opts.AllContexts:
		names := make([]string, 0, len(raw.Contexts))
		for name := range raw.Contexts {
			names = append(names, name)
		}
		sort.Strings(names)
		return names, nil
	case len(opts.Contexts) > 0:
		return opts.Contexts, nil
	case raw.CurrentContext == "":
		return nil, errors.New("kubeconfig has no current context; pass --context or --all-contexts")
	}
	return []string{raw.CurrentContext}, nil
}

// NewClusterClients makes the typed client (protobuf, for built-in kinds),
// the hanzo.ai/v1 client (JSON decoded in one parse, for Apps) and the
// dynamic client (for Hanzo CD's Applications) of one cluster.
func NewClusterClients(name string, cfg *rest.Config, opts ConnectOptions) (ClusterClients, error) {
	cfg = rest.CopyConfig(cfg)
	cfg.QPS, cfg.Burst = opts.QPS, opts.Burst
	if cfg.QPS == 0 {
		cfg.QPS = 100
	}
	if cfg.Burst == 0 {
		cfg.Burst = 200
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = "driftboard"
	}
	if why := applyCompression(cfg, opts.Compression); opts.Log != nil {
		opts.Log.Info(why, "cluster", name)
	}
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return ClusterClients{}, fmt.Errorf("cluster %s: http client: %w", name, err)
	}
	dyn, err := dynamic.NewForConfigAndClient(cfg, hc) // dynamic forces JSON itself
	if err != nil {
		return ClusterClients{}, fmt.Errorf("cluster %s: dynamic client: %w", name, err)
	}
	apps, err := newAppsClient(name, cfg, hc) // the same transport as the dynamic client's
	if err != nil {
		return ClusterClients{}, fmt.Errorf("cluster %s: %w", name, err)
	}
	pb := rest.CopyConfig(cfg)
	pb.ContentType = "application/vnd.kubernetes.protobuf"
	pb.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
	kube, err := newTypedClients(pb, hc)
	if err != nil {
		return ClusterClients{}, fmt.Errorf("cluster %s: client: %w", name, err)
	}
	inPlace := &atomic.Int64{}
	workloads, err := wire.NewAppsV1Client(pb, hc, inPlace)
	if err != nil {
		return ClusterClients{}, fmt.Errorf("cluster %s: %w", name, err)
	}
	return ClusterClients{Name: name, Kube: kube, Dynamic: dyn, Server: cfg.Host, apps: apps, workloads: workloads, workloadsInPlace: inPlace}, nil
}

// missingContext says a context named on the command line or in the config
// file is not in the kubeconfig, and which are (the first few).
func missingContext(raw *clientcmdapi.Config, name string) error {
	have := make([]string, 0, len(raw.Contexts))
	for n := range raw.Contexts {
		have = append(have, n)
	}
	sort.Strings(have)
	list := strings.Join(have, ", ")
	if len(have) > 8 {
		list = strings.Join(have[:8], ", ") + fmt.Sprintf(", … (%d in all)", len(have))
	}
	if len(have) == 0 {
		list = "none"
	}
	return fmt.Errorf("context %q does not exist in the kubeconfig (its contexts: %s)", name, list)
}

// ContextConfig is the client configuration of one kubeconfig context, as
// Connect would open it (for a Karmada source's API server).
func ContextConfig(opts ConnectOptions, name string) (*rest.Config, error) {
	opts.Contexts, opts.AllContexts = []string{name}, false
	configs, failed := contextConfigs(opts)
	if len(failed) > 0 {
		return nil, errors.New(failed[0].Reason)
	}
	if len(configs) == 0 {
		return nil, fmt.Errorf("context %s: not found", name)
	}
	return configs[0].config(), nil
}
