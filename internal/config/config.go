// Package config reads driftboard's config file
// ($XDG_CONFIG_HOME/driftboard/config.yaml) strictly: unknown fields and bad
// values are errors that name the file, line and field. It holds no flag or
// environment logic beyond locating the file; cli layers those on top.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"sigs.k8s.io/yaml"
)

// Defaults for values the file may leave out.
const (
	DefaultIssuer          = "https://hanzo.id"
	DefaultClientID        = "hanzo-cli"
	DefaultTheme           = "auto"
	DefaultReleaseInterval = 10 * time.Minute
	DefaultGitHubURL       = "https://api.github.com/"
	DefaultMaxParallel     = 3 // restarts of a set at once
	DefaultLogLines        = 5000
	MinLogLines            = 10
	MaxLogLines            = 1_000_000
)

// Config is the file's content. JSON tags are the YAML field names
// (sigs.k8s.io/yaml goes through JSON).
type Config struct {
	// Contexts are the kubeconfig contexts watched when --context is not given.
	Contexts []string `json:"contexts,omitempty"`
	// Issuer is the IAM OIDC issuer URL.
	Issuer string `json:"issuer,omitempty"`
	// ClientID is the public OAuth client id.
	ClientID string `json:"clientID,omitempty"`
	// Theme is auto (follow the terminal background), dark or light.
	Theme string `json:"theme,omitempty"`
	// ReadOnly disables every action on every context.
	ReadOnly bool `json:"readOnly,omitempty"`
	// PerContext holds settings for one kubeconfig context.
	PerContext map[string]ContextSettings `json:"perContext,omitempty"`
	// SavedFilters are named queries selectable in the board.
	SavedFilters map[string]string `json:"savedFilters,omitempty"`
	// Keys overrides key bindings: action name → keys.
	Keys map[string][]string `json:"keys,omitempty"`
	// Releases configures the GitHub release checks.
	Releases Releases `json:"releases,omitzero"`
	// IAM says which clusters trust the IAM issuer.
	IAM IAM `json:"iam,omitzero"`
	// Restart tunes restarts of a set (the board's R, restart -q).
	Restart Restart `json:"restart,omitzero"`
	// Logs tunes the board's log view.
	Logs Logs `json:"logs,omitzero"`
	// CD says where the git sync state is read.
	CD CD `json:"cd,omitzero"`
	// Promote configures promotions (declaring files, step budgets).
	Promote Promote `json:"promote,omitzero"`
	// Karmada reads member clusters through Karmada's search proxy.
	Karmada *Karmada `json:"karmada,omitempty"`
}

// Logs tunes the log view: MaxLines is how many lines it keeps (the oldest
// are dropped beyond it).
type Logs struct {
	MaxLines *int `json:"maxLines,omitempty"`
}

// MaxLinesOrDefault is the log view's line limit in force.
func (l Logs) MaxLinesOrDefault() int {
	if l.MaxLines == nil {
		return DefaultLogLines
	}
	return *l.MaxLines
}

// CD lists the CD Application kinds looked for, in order, as
// resource.group[/version][@namespace]; empty means Hanzo CD's
// applications.apps.hanzo.ai/v1alpha1@hanzo-cd, then Argo CD's
// applications.argoproj.io/v1alpha1@argocd.
type CD struct {
	ApplicationKinds []string `json:"applicationKinds,omitempty"`
}

// Restart tunes set restarts. MaxParallel is a pointer so an explicit 0 is
// an error, not the default.
type Restart struct {
	MaxParallel *int `json:"maxParallel,omitempty"`
}

// MaxParallelOrDefault is the set restart limit in force.
func (r Restart) MaxParallelOrDefault() int {
	if r.MaxParallel == nil {
		return DefaultMaxParallel
	}
	return *r.MaxParallel
}

// ContextSettings are settings for one kubeconfig context.
type ContextSettings struct {
	ReadOnly bool `json:"readOnly,omitempty"`
}

// Releases configures the GitHub release reader. Enabled is a pointer so an
// absent field (on) differs from an explicit false.
type Releases struct {
	Enabled   *bool  `json:"enabled,omitempty"`
	Interval  string `json:"interval,omitempty"` // Go duration, e.g. 10m
	GitHubURL string `json:"githubURL,omitempty"`
	// Repos map image paths to GitHub repositories, before the defaults.
	Repos []RepoMapping `json:"repos,omitempty"`
}

// RepoMapping maps image paths (a pattern, * within one segment) to a GitHub
// owner/repo (* stands for what the image's starred segment matched); an
// empty GitHub means those images have no repository to look up.
type RepoMapping struct {
	Image  string `json:"image"`
	GitHub string `json:"github"`
}

// On reports whether release checks are on (the default).
func (r Releases) On() bool { return r.Enabled == nil || *r.Enabled }

// IntervalOrDefault parses Interval; Validate has already rejected bad values.
func (r Releases) IntervalOrDefault() time.Duration {
	d, err := time.ParseDuration(r.Interval)
	if err != nil || r.Interval == "" {
		return DefaultReleaseInterval
	}
	return d
}

// ReadOnlyFor reports whether actions are disabled on the given context.
func (c *Config) ReadOnlyFor(context string) bool {
	return c.ReadOnly || c.PerContext[context].ReadOnly
}

// WithDefaults returns a copy with empty fields set to their defaults.
func (c Config) WithDefaults() Config {
	if c.Issuer == "" {
		c.Issuer = DefaultIssuer
	}
	if c.ClientID == "" {
		c.ClientID = DefaultClientID
	}
	if c.Theme == "" {
		c.Theme = DefaultTheme
	}
	if c.Releases.Interval == "" {
		c.Releases.Interval = DefaultReleaseInterval.String()
	}
	if c.Releases.GitHubURL == "" {
		c.Releases.GitHubURL = DefaultGitHubURL
	}
	if c.Restart.MaxParallel == nil {
		n := DefaultMaxParallel
		c.Restart.MaxParallel = &n
	}
	if c.Logs.MaxLines == nil {
		n := DefaultLogLines
		c.Logs.MaxLines = &n
	}
	if c.Releases.Enabled == nil {
		on := true
		c.Releases.Enabled = &on
	}
	return c
}

// DefaultPath is $XDG_CONFIG_HOME/driftboard/config.yaml, else
// $HOME/.config/driftboard/config.yaml. It returns "" when neither is known.
// getenv is os.Getenv in production.
func DefaultPath(getenv func(string) string) string {
	if x := getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "driftboard", "config.yaml")
	}
	home := getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return ""
		}
	}
	return filepath.Join(home, ".config", "driftboard", "config.yaml")
}

// Load reads and validates the file at path. When explicit is false a
// missing file is not an error (found is false and the config is empty).
func Load(path string, explicit bool, checks Checks) (cfg *Config, found bool, err error) {
	if path == "" {
		return &Config{}, false, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		return &Config{}, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read config: %w", err)
	}
	cfg, err = Parse(path, data, checks)
	return cfg, err == nil, err
}

// Parse decodes data (named file in errors) strictly and validates it.
func Parse(file string, data []byte, checks Checks) (*Config, error) {
	doc, err := parseNodes(file, data)
	if err != nil {
		return nil, err
	}
	if errs := checkShape(file, doc, typeOfConfig); len(errs) > 0 {
		// The values are checked too, where their shape allowed decoding.
		// A value of the wrong kind is left zero (not decoded); the
		// problem with it is already said, once.
		var cfg Config
		_ = yaml.Unmarshal(data, &cfg)
		keysAsWritten(doc, &cfg)
		return nil, asError(firstPerField(append(errs, validate(file, doc, &cfg, checks)...)))
	}
	var cfg Config
	// checkShape has matched every field and kind; the strict decode is the
	// second line of defence (e.g. numbers out of range).
	if err := yaml.UnmarshalStrict(data, &cfg); err != nil {
		return nil, &Error{File: file, Line: 1, Column: 1, Msg: err.Error()}
	}
	keysAsWritten(doc, &cfg)
	if errs := validate(file, doc, &cfg, checks); len(errs) > 0 {
		return nil, asError(errs)
	}
	return &cfg, nil
}
