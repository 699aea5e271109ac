package cli

import (
	"log/slog"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/hanzoai/driftboard/internal/config"
	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/kube/execcred"
)

// globalOptions are the kubectl-style flags every command shares.
type globalOptions struct {
	kubeconfig    string
	contexts      []string
	allContexts   bool
	namespaces    []string
	allNamespaces bool
	selector      string
	readOnly      bool
	noColor       bool
	releases      string // on|off; "" = config file
	compression   string // auto|on|off
	issuer        string
	clientID      string
	iamClusters   []string
	logFile       string
	verbosity     int
	configPath    string
}

func (o *globalOptions) register(fs *pflag.FlagSet) {
	fs.StringVar(&o.kubeconfig, "kubeconfig", "", "path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config, else in-cluster)")
	fs.StringSliceVar(&o.contexts, "context", nil, "kubeconfig contexts to watch, comma separated (default: the config file's contexts, else the current context)")
	fs.BoolVar(&o.allContexts, "all-contexts", false, "watch every context in the kubeconfig")
	fs.StringSliceVarP(&o.namespaces, "namespace", "n", nil, "only these namespaces, comma separated (default: all namespaces you may read)")
	fs.BoolVarP(&o.allNamespaces, "all-namespaces", "A", false, "every namespace (the default; conflicts with -n)")
	fs.StringVarP(&o.selector, "selector", "l", "", "label selector on Apps, e.g. app.kubernetes.io/part-of=iam")
	fs.BoolVar(&o.readOnly, "readonly", false, "disable every action (restart)")
	fs.BoolVar(&o.noColor, "no-color", false, "no colours (NO_COLOR and TERM=dumb are honoured too)")
	fs.StringVar(&o.releases, "releases", "", "GitHub release checks: on|off (default: the config file, else on)")
	fs.StringVar(&o.compression, "compression", "auto", "gzip from the API servers: auto (on, unless the kubeconfig's cluster says disable-compression)|on|off")
	fs.StringVar(&o.issuer, "issuer", "", "IAM OIDC issuer (env HANZO_IAM_ISSUER; default https://hanzo.id)")
	fs.StringVar(&o.clientID, "client-id", "", "OAuth client id (env HANZO_CLIENT_ID; default hanzo-cli)")
	fs.StringArrayVar(&o.iamClusters, "iam-cluster", nil, "for this run, also trust this context (NAME, with the server this run's kubeconfig gives it, or NAME=https://server) or https server URL with the IAM token (adds to the config's iam.clusters; repeatable)")
	fs.StringVar(&o.logFile, "log-file", "", "write logs (and client-go's) to this file; nothing is ever logged onto the board")
	fs.IntVarP(&o.verbosity, "v", "v", 0, "log verbosity: 0 warnings, 1 info, 2 debug, 4+ client-go detail")
	fs.StringVar(&o.configPath, "config", "", "config file (default $XDG_CONFIG_HOME/driftboard/config.yaml)")
}

func (o *globalOptions) validate() error {
	if o.allNamespaces && len(o.namespaces) > 0 {
		return usageErr("-A/--all-namespaces and -n/--namespace exclude each other")
	}
	if o.allContexts && len(o.contexts) > 0 {
		return usageErr("--all-contexts and --context exclude each other")
	}
	switch o.releases {
	case "", "on", "off":
	default:
		return usageErr("--releases must be on or off, not %q", o.releases)
	}
	if _, err := kube.ParseCompression(o.compression); err != nil {
		return usageErr("--compression %v", err)
	}
	if _, err := labels.Parse(o.selector); err != nil { // kubectl refuses it before asking any server
		return usageErr("-l/--selector: %v", err)
	}
	if o.verbosity < 0 {
		return usageErr("-v must be 0 or more")
	}
	for _, c := range o.iamClusters {
		if err := config.CheckIAMCluster(c); err != nil {
			return usageErr("--iam-cluster: %v", err)
		}
	}
	for _, c := range o.contexts {
		if strings.TrimSpace(c) == "" {
			return usageErr("--context has an empty name")
		}
	}
	return nil
}

// app is one invocation's state: streams, flags, logger and config, loaded
// once on demand.
type app struct {
	streams Streams
	opts    globalOptions
	log     *slog.Logger
	closers []func()
	// plugins run the kubeconfig's exec credential plugins for the board
	// (execcred.Plugins); nil for the other commands, where client-go
	// runs them as kubectl does.
	plugins *execcred.Plugins

	cfgLoaded bool
	cfgFile   *config.Config
	cfgFound  bool
	cfgPath   string

	servers map[string]string // context → API server URL, of the clusters opened
	timeout string            // the command's --timeout, for words about it
	// forgeFor replaces the GitHub forge (tests: the demo's GitHub).
	forgeFor func(config.Effective) (promote.Forge, promote.RepoParser, error)
	// promotionPoll is how often watch reads the promotions again (0: 30s).
	promotionPoll time.Duration
}

func newApp(s Streams) *app {
	return &app{streams: s, log: slog.New(slog.DiscardHandler), servers: map[string]string{}}
}

func (a *app) close() {
	for i := len(a.closers) - 1; i >= 0; i-- {
		a.closers[i]()
	}
}

// configFile loads the config file once; errors name the file, line and field.
func (a *app) configFile() (*config.Config, error) {
	if a.cfgLoaded {
		return a.cfgFile, nil
	}
	path, explicit := a.opts.configPath, a.opts.configPath != ""
	if !explicit {
		path = config.DefaultPath(a.streams.Getenv)
	}
	cfg, found, err := config.Load(path, explicit, configChecks())
	if err != nil {
		return nil, err
	}
	a.cfgLoaded, a.cfgFile, a.cfgFound, a.cfgPath = true, cfg, found, path
	a.log.Debug("config", "path", path, "found", found)
	return cfg, nil
}

// effective is the configuration in force: flags > env > file > defaults.
func (a *app) effective() (config.Effective, error) {
	file, err := a.configFile()
	if err != nil {
		return config.Effective{}, err
	}
	o := config.Overrides{
		Issuer:   a.opts.issuer,
		ClientID: a.opts.clientID,
		Contexts: a.opts.contexts,
		ReadOnly: a.opts.readOnly,

		IAMClusters: a.opts.iamClusters,
	}
	if a.opts.releases != "" {
		on := a.opts.releases == "on"
		o.Releases = &on
	}
	return config.Resolve(*file, o, a.streams.Getenv), nil
}
