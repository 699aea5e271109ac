package cli

import (
	"slices"
	"time"

	"github.com/hanzoai/driftboard/internal/config"
	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
)

// karmadaContexts are the contexts a fleet with a Karmada source opens
// direct: the chosen ones (none chosen: the members' alone, the Karmada
// fleet is the board) and the members' own, for their actions.
func karmadaContexts(k *config.Karmada, chosen []string) []string {
	// A member's Cluster name chosen is read through the proxy, not opened.
	out := slices.DeleteFunc(slices.Clone(chosen), func(c string) bool { _, member := k.Members[c]; return member })
	for _, ctx := range k.Members {
		if ctx != "" && !slices.Contains(out, ctx) {
			out = append(out, ctx)
		}
	}
	slices.Sort(out)
	return slices.DeleteFunc(out, func(c string) bool { return c == k.Context })
}

// throughKarmada replaces the members' direct clusters with the members
// read through Karmada's search proxy; their direct clients stay for their
// actions only. A member is shown once: as the proxy reads it.
//
// Chosen contexts (none: all) narrow the members too, by context or by
// Cluster name.
func (a *app) throughKarmada(k *config.Karmada, chosen []string, clusters []kube.ClusterClients, failed []model.ClusterState) ([]kube.ClusterClients, []model.ClusterState) {
	byName := map[string]kube.ClusterClients{}
	for _, c := range clusters {
		byName[c.Name] = c
	}
	names := make([]string, 0, len(k.Members))
	for name := range k.Members {
		names = append(names, name)
	}
	slices.Sort(names)
	members := make([]kube.KarmadaMember, 0, len(names))
	memberContexts := map[string]bool{} // every member's, chosen or not: never a cluster of its own
	for _, ctx := range k.Members {
		memberContexts[ctx] = ctx != ""
	}
	for _, name := range names {
		if len(chosen) > 0 && !slices.Contains(chosen, name) && (k.Members[name] == "" || !slices.Contains(chosen, k.Members[name])) {
			continue
		}
		m := kube.KarmadaMember{Cluster: name}
		if ctx := k.Members[name]; ctx != "" {
			if cc, ok := byName[ctx]; ok {
				m.Direct = &cc
			}
		}
		members = append(members, m)
	}
	fail := func(err error) ([]kube.ClusterClients, []model.ClusterState) {
		return clusters, append(failed, model.ClusterState{Name: k.Context, Phase: model.ConnFailed, Since: time.Now(),
			Reason: "Karmada: " + err.Error()})
	}
	opts := a.connectOptions(nil)
	cfg, err := kube.ContextConfig(opts, k.Context)
	if err != nil {
		return fail(err)
	}
	src := kube.KarmadaSource{Name: k.Context, Config: cfg, Members: members}
	if k.WhileDegraded == config.WhileDegradedWait {
		src.DirectAfter = -1 // never: the members' rows wait, stale, for the proxy
	}
	proxied, err := kube.ConnectKarmada(src, opts)
	if err != nil {
		return fail(err)
	}
	direct := slices.DeleteFunc(clusters, func(c kube.ClusterClients) bool { return memberContexts[c.Name] })
	// A member's context that failed is not a cluster of its own either:
	// the member is read through the proxy, its actions refused.
	failed = slices.DeleteFunc(failed, func(st model.ClusterState) bool { return memberContexts[st.Name] })
	return append(direct, proxied...), failed
}
