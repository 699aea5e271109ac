package config

import "strings"

// Karmada declares a Karmada control plane whose search proxy the board
// reads members through: one list and watch per kind for the whole fleet,
// as the Karmada context's identity. Members maps each member's Cluster name
// in Karmada to the kubeconfig context its actions (restarts, logs, Events)
// go to, with that context's identity and trust; "" names none, and its
// actions are refused. A member's context is not also watched direct: the
// proxy's rows win, so a cluster is never shown twice.
//
// WhileDegraded is what a member with a context does while the proxy
// fails (a hung member makes it answer 429 for every member): "direct"
// (the default) reads it from its context, as that identity, until the
// proxy answers again, so only the hung member turns stale; "wait" keeps
// its rows stale until the proxy is back, and the members serve no board.
type Karmada struct {
	Context       string            `json:"context"`
	Members       map[string]string `json:"members"`
	WhileDegraded string            `json:"whileDegraded,omitempty"`
}

// The values of karmada.whileDegraded.
const (
	WhileDegradedDirect = "direct"
	WhileDegradedWait   = "wait"
)

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
	switch k.WhileDegraded {
	case "", WhileDegradedDirect, WhileDegradedWait:
	default:
		at("karmada.whileDegraded", "karmada", "whileDegraded")("%q: want %q or %q", k.WhileDegraded, WhileDegradedDirect, WhileDegradedWait)
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
