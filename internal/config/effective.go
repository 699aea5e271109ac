package config

import (
	"bytes"
	"fmt"
	"slices"

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

// Effective is the configuration in force with where each top-level value
// came from: "flag", "env NAME", "file" or "default".
type Effective struct {
	Config
	Sources map[string]string `json:"-"`
}

// Resolve applies the precedence flags > environment > file > defaults.
func Resolve(file Config, o Overrides, getenv func(string) string) Effective {
	e := Effective{Config: file, Sources: map[string]string{}}
	for _, f := range []string{"contexts", "issuer", "clientID", "theme", "readOnly", "releases", "iam", "restart", "logs"} {
		e.Sources[f] = "default"
	}
	mark := func(field string, set bool) {
		if set {
			e.Sources[field] = "file"
		}
	}
	mark("contexts", len(file.Contexts) > 0)
	mark("issuer", file.Issuer != "")
	mark("clientID", file.ClientID != "")
	mark("theme", file.Theme != "")
	mark("readOnly", file.ReadOnly)
	mark("releases", file.Releases.set())
	mark("iam", len(file.IAM.Clusters) > 0)
	mark("restart", file.Restart.MaxParallel != nil)
	mark("logs", file.Logs.MaxLines != nil)
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
		e.Sources["iam"] = "flag --iam-cluster"
	}
	if o.Releases != nil {
		on := *o.Releases
		e.Releases.Enabled, e.Sources["releases"] = &on, "flag --releases"
	}
	e.Config = e.Config.WithDefaults()
	return e
}

// YAML renders the effective configuration with each top-level field's
// source as a line comment, headed by the file it read.
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
		for i := 0; i+1 < len(root.Content); i += 2 {
			if src, ok := e.Sources[root.Content[i].Value]; ok {
				root.Content[i].LineComment = src
			}
		}
	}
	var buf bytes.Buffer
	enc := yamlv3.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, fmt.Errorf("encode config: %w", err)
	}
	return buf.Bytes(), enc.Close()
}
