package config

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"

	yamlv3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"
)

// Environment variables shared with the hanzo CLI.
const (
	EnvIssuer   = "HANZO_IAM_ISSUER"
	EnvClientID = "HANZO_CLIENT_ID"
)

// Overrides are the command-line values that beat the file; zero means unset.
type Overrides struct {
	Issuer   string
	ClientID string
	Contexts []string
	ReadOnly bool   // --readonly can only switch read-only on
	Releases *bool  // --releases=on|off
	Theme    string // e.g. "dark"; "" leaves the file's
	// IAMClusters are added to the file's iam.clusters for this run.
	IAMClusters []string
}

// Effective is the configuration in force with where each value came
// from, by its dotted path (issuer, releases.interval, ...): "flag --NAME",
// "env NAME", "file" or "default".
type Effective struct {
	Config
	Sources map[string]string `json:"-"`
}

// fileValues are the values a file may set, by path, with whether it did.
var fileValues = []struct {
	path string
	set  func(Config) bool
}{
	{"contexts", func(c Config) bool { return len(c.Contexts) > 0 }},
	{"issuer", func(c Config) bool { return c.Issuer != "" }},
	{"clientID", func(c Config) bool { return c.ClientID != "" }},
	{"theme", func(c Config) bool { return c.Theme != "" }},
	{"readOnly", func(c Config) bool { return c.ReadOnly }},
	{"perContext", func(c Config) bool { return len(c.PerContext) > 0 }},
	{"savedFilters", func(c Config) bool { return len(c.SavedFilters) > 0 }},
	{"keys", func(c Config) bool { return len(c.Keys) > 0 }},
	{"releases.enabled", func(c Config) bool { return c.Releases.Enabled != nil }},
	{"releases.interval", func(c Config) bool { return c.Releases.Interval != "" }},
	{"releases.githubURL", func(c Config) bool { return c.Releases.GitHubURL != "" }},
	{"releases.repos", func(c Config) bool { return len(c.Releases.Repos) > 0 }},
	{"iam.clusters", func(c Config) bool { return len(c.IAM.Clusters) > 0 }},
	{"restart.maxParallel", func(c Config) bool { return c.Restart.MaxParallel != nil }},
	{"logs.maxLines", func(c Config) bool { return c.Logs.MaxLines != nil }},
	{"cd.applicationKinds", func(c Config) bool { return len(c.CD.ApplicationKinds) > 0 }},
	{"promote.files", func(c Config) bool { return len(c.Promote.Files) > 0 }},
	{"promote.budgets", func(c Config) bool { return c.Promote.Budgets != PromoteBudgets{} }},
	{"karmada", func(c Config) bool { return c.Karmada != nil }},
}

// Resolve applies the precedence flags > environment > file > defaults.
func Resolve(file Config, o Overrides, getenv func(string) string) Effective {
	e := Effective{Config: file, Sources: map[string]string{}}
	for _, v := range fileValues {
		e.Sources[v.path] = "default"
		if v.set(file) {
			e.Sources[v.path] = "file"
		}
	}
	if v := getenv(EnvIssuer); v != "" {
		e.Issuer, e.Sources["issuer"] = v, "env "+EnvIssuer
	}
	if v := getenv(EnvClientID); v != "" {
		e.ClientID, e.Sources["clientID"] = v, "env "+EnvClientID
	}
	if o.Issuer != "" {
		e.Issuer, e.Sources["issuer"] = o.Issuer, "flag --issuer"
	}
	if o.ClientID != "" {
		e.ClientID, e.Sources["clientID"] = o.ClientID, "flag --client-id"
	}
	if len(o.Contexts) > 0 {
		e.Contexts, e.Sources["contexts"] = o.Contexts, "flag --context"
	}
	if o.ReadOnly {
		e.ReadOnly, e.Sources["readOnly"] = true, "flag --readonly"
	}
	if o.Theme != "" {
		e.Theme, e.Sources["theme"] = o.Theme, "flag"
	}
	if len(o.IAMClusters) > 0 {
		e.IAM.Clusters = append(slices.Clone(file.IAM.Clusters), o.IAMClusters...)
		e.IAM.OneRun = slices.Clone(o.IAMClusters)
		e.Sources["iam.clusters"] = "flag --iam-cluster"
		if len(file.IAM.Clusters) > 0 {
			e.Sources["iam.clusters"] = "file and flag --iam-cluster"
		}
	}
	if o.Releases != nil {
		on := *o.Releases
		e.Releases.Enabled, e.Sources["releases.enabled"] = &on, "flag --releases"
	}
	e.Config = e.Config.WithDefaults()
	if d, err := time.ParseDuration(e.Releases.Interval); err == nil { // one form, as written or by default
		e.Releases.Interval = FormatDuration(d)
	}
	return e
}

// FormatDuration is time.Duration's String without its zero tails: 10m,
// 1h, 1h30m, 1m30s (10m0s, 1h0m0s and 1h30m0s otherwise).
func FormatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// YAML renders the effective configuration with each value's source as a
// line comment, headed by the file it read.
func (e Effective) YAML(path string, found bool) ([]byte, error) {
	raw, err := yaml.Marshal(e.Config)
	if err != nil {
		return nil, fmt.Errorf("encode config: %w", err)
	}
	var doc yamlv3.Node
	if err := yamlv3.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("re-read config: %w", err)
	}
	state := "read"
	if !found {
		state = "not found, defaults in force"
	}
	if path == "" {
		path, state = "(none)", "no home directory"
	}
	if len(doc.Content) == 1 {
		root := doc.Content[0]
		root.HeadComment = fmt.Sprintf("driftboard effective configuration\nfile: %s (%s)", path, state)
		e.commentSources(root, "")
	}
	var buf bytes.Buffer
	enc := yamlv3.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, fmt.Errorf("encode config: %w", err)
	}
	return buf.Bytes(), enc.Close()
}

// commentSources puts each value's source beside it: on the value of a
// scalar, on the key of a list or map that has one source as a whole.
func (e Effective) commentSources(n *yamlv3.Node, prefix string) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		path := prefix + k.Value
		if src, ok := e.Sources[path]; ok {
			k.LineComment = src
			continue
		}
		if v.Kind == yamlv3.MappingNode {
			e.commentSources(v, path+".")
		}
	}
}
