package config

import "strings"

// Karmada declares a Karmada control plane whose search proxy the board
// reads members through: one list and watch per kind for the whole fleet,
// as the Karmada context's identity. Members maps each member's Cluster name
// in Karmada to the kubeconfig context its actions (restarts, logs, Events)
// go to, with that context's identity and trust; "" names none, and its
// actions are refused. A member's context is not also watched direct: the
// proxy's rows win, so a cluster is never shown twice.
type Karmada struct {
	Context string            `json:"context"`
	Members map[string]string `json:"members"`
}

func validateKarmada(k *Karmada, at func(string, ...string) func(string, ...any) error) {
	if k == nil {
		return
	}
	if strings.TrimSpace(k.Context) == "" {
		at("karmada.context", "karmada", "context")("the kubeconfig context of Karmada's API server is required")
	}
	if len(k.Members) == 0 {
		at("karmada.members", "karmada", "members")("name at least one member cluster")
	}
	for name, ctx := range k.Members {
		if strings.TrimSpace(name) == "" {
			at("karmada.members", "karmada", "members")("empty member name")
		}
		if ctx == k.Context && ctx != "" {
			at("karmada.members."+name, "karmada", "members", name)("%q is Karmada's own context, not a member's", ctx)
		}
	}
}
