package model

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hanzoai/driftboard/drift"
)

// CRDirectory is where the App CRs that declare the tags live, in the
// universe repo. It names the directory, not a file: a CR is not always
// named after its app (and the current ones end in -v1.yaml).
const CRDirectory = "infra/k8s/operator/crs/"

// RestartPlan is everything a person must know before a rolling restart of
// one row's workload, decided once here so that the board's dialog, the
// restart command and set restarts render the same truth. Build it with
// PlanRestart; it is a value and holds no IO. Permission (IAM scope, RBAC,
// read-only) is decided by whoever can see the session and the cluster;
// Blocked only says what the row itself forbids.
type RestartPlan struct {
	App       string
	Namespace string
	Cluster   string
	Env       Env
	Kind      WorkloadKind // Deployment or StatefulSet; the expected kind when not found
	Workload  string       // the workload's name

	// Image is the repository pulled. Repulls is the tag new pods run: a
	// restart re-creates pods from the workload's pod template, so the
	// template's tag is what is pulled (the running tag when the template's
	// is unknown). Declared is the App's tag, which differs from Repulls
	// while the template lags the App spec.
	Image    string
	Repulls  string
	Declared string

	// Blocked is why this row cannot be restarted ("" = it may be asked).
	Blocked string
	// MustType: production, so the App's name must be typed to confirm.
	MustType bool
	// NotFixed are the drift kinds on the row that a restart leaves as they
	// are; Warnings say so, and what else to know, in sentences.
	NotFixed []drift.DriftKind
	Warnings []string
}

// PlanRestart decides what restarting r's workload would do.
func PlanRestart(r *AppView) RestartPlan {
	w := r.Workload
	p := RestartPlan{
		App: r.App, Namespace: r.Namespace, Cluster: r.Cluster, Env: r.Env,
		Kind: w.Kind, Workload: w.Name, Image: r.Registry,
		Repulls: w.SpecTag, Declared: r.DeclaredTag,
		MustType: r.Env.IsProduction(),
	}
	if p.Workload == "" {
		p.Workload = r.App
	}
	if p.Repulls == "" {
		p.Repulls = r.RunningTag
	}
	p.Blocked = restartBlock(r.Namespace, p.Workload, r.Role, w.Kind, w.Found, w.Paused)
	switch w.Presence() {
	case WorkloadUnreadable:
		p.Blocked = unreadableBlock(w.Unreadable)
	case WorkloadPending:
		p.Blocked = pendingBlock(w.Pending)
	}
	p.NotFixed, p.Warnings = restartCaveats(r, p)
	return p
}

// ReadOnlyBlock is the refusal of a restart while read-only: the whole
// board ("" cluster) or one context that the config makes read-only.
func ReadOnlyBlock(cluster string) string {
	if cluster == "" {
		return "read-only mode (--readonly or the config file): restarts are switched off"
	}
	return fmt.Sprintf("read-only mode: context %s is read-only (--readonly or the config file), so restarts there are switched off", cluster)
}

// WorkloadRestartBlock is why the observed workload of an App with role
// cannot be restarted, "" if it can (wl nil: none was found).
func WorkloadRestartBlock(key Key, role string, wl *Workload) string {
	if wl != nil && wl.Unreadable != "" {
		return unreadableBlock(wl.Unreadable)
	}
	if wl != nil && wl.Pending != "" {
		return pendingBlock(wl.Pending)
	}
	if wl == nil {
		return restartBlock(key.Namespace, key.Name, role, ExpectedKind(role), false, false)
	}
	return restartBlock(key.Namespace, wl.Name, role, wl.Kind, true, wl.Paused)
}

// unreadableBlock refuses a restart of a workload this identity may not
// read: it may well exist, but nothing about it can be checked.
func unreadableBlock(why string) string {
	return "Restart refused: " + why + "; the workload may exist, but this identity cannot check it."
}

// pendingBlock refuses a restart of a workload not listed yet: whether it
// exists, and what it runs, is not known until its cluster has synced.
func pendingBlock(why string) string {
	return "Restart refused: " + why + "; try again when the cluster is live."
}

func restartBlock(ns, name, role string, kind WorkloadKind, found, paused bool) string {
	switch {
	case !found && kind == KindNone:
		if role == "" {
			role = "(none)"
		}
		return fmt.Sprintf("Role %s makes no workload: there is nothing to restart.", role)
	case !found:
		return fmt.Sprintf("%s %s/%s does not exist: there is nothing to restart.", kind, ns, name)
	case paused:
		return fmt.Sprintf("%s %s/%s is paused; resume it first (kubectl rollout resume %s/%s -n %s).",
			kind, ns, name, strings.ToLower(string(kind)), name, ns)
	}
	return ""
}

// restartCaveats: a restart re-pulls the template's tag and changes no
// declaration, so every drift that needs a new declaration or release stays.
func restartCaveats(r *AppView, p RestartPlan) ([]drift.DriftKind, []string) {
	var notFixed []drift.DriftKind
	var ws []string
	if r.Workload.Rollout == RolloutProgressing {
		ws = append(ws, fmt.Sprintf("A rollout is already in progress (%d/%d updated); a restart starts it over.",
			r.Workload.Updated, r.Workload.Desired))
	}
	if r.Offline {
		ws = append(ws, "This cluster's watch is down: the row may be out of date.")
	}
	if r.HasProblem(ProblemLegacyWorkload) {
		ws = append(ws, legacyWords(p))
	}
	if r.Upgrade.Failed() {
		ws = append(ws, r.Upgrade.FailedWords())
	}
	if p.Declared != "" && p.Repulls != "" && p.Declared != p.Repulls {
		ws = append(ws, fmt.Sprintf("The App declares %s but the workload template still has %s: the restart re-pulls %s, not %s.",
			p.Declared, p.Repulls, p.Repulls, p.Declared))
	}
	for _, f := range r.Drift.Flags {
		switch f.Kind {
		case drift.DriftUnrolled:
			if p.Declared == p.Repulls {
				continue // the template has the declared tag: new pods run it
			}
		case drift.DriftFloatingRunning:
			ws = append(ws, fmt.Sprintf("The running tag %s floats: a restart may pull a different image under the same name.", p.Repulls))
		}
		if !slices.Contains(notFixed, f.Kind) {
			notFixed = append(notFixed, f.Kind)
		}
	}
	if len(notFixed) > 0 {
		words := make([]string, len(notFixed))
		for i, k := range notFixed {
			words[i] = string(k)
		}
		ws = append(ws, fmt.Sprintf("A restart will not fix %s: it changes no tag and no release; tags are declared in git, in the App's CR under %s of the universe repo.",
			strings.Join(words, ", "), CRDirectory))
	}
	return notFixed, ws
}

// legacyWords warns that the workload restarted is one the App does not
// own: only the missing controller reference was observed, so who manages
// it instead is not said.
func legacyWords(p RestartPlan) string {
	return fmt.Sprintf("Legacy workload: %s %s/%s has no controller reference to the App %s, so the Hanzo operator does not own it. "+
		"The restart touches only this %s: it adds restart annotations to its pod template and its pods are re-created; "+
		"the App is not changed, and whatever else manages this %s is not known here.",
		p.Kind, p.Namespace, p.Workload, p.App, p.Kind, p.Kind)
}

// Title names the action: "Rolling restart of Deployment hanzo/iam in cluster prod (env main)".
func (p RestartPlan) Title() string {
	kind := string(p.Kind)
	if kind == "" {
		kind = "workload"
	}
	env := string(p.Env)
	if env == "" {
		env = "unknown"
	}
	return fmt.Sprintf("Rolling restart of %s %s/%s in cluster %s (env %s)", kind, p.Namespace, p.Workload, p.Cluster, env)
}

// Effect says what is pulled and that nothing is changed.
func (p RestartPlan) Effect() string {
	tag := p.Repulls
	if tag == "" {
		tag = "(unknown tag)"
	}
	return fmt.Sprintf("Pods are re-created from the workload template and re-pull %s:%s; no tag or image is changed.", p.Image, tag)
}

// Prompt asks for the confirmation Confirmed accepts.
func (p RestartPlan) Prompt() string {
	if p.MustType {
		return fmt.Sprintf("Production (env %s): type the App's name (%s) to restart.", p.Env, p.App)
	}
	return "Restart? [y/N]"
}

// Confirmed reports whether answer confirms the restart: the exact App
// name in production, y or yes elsewhere. Anything else is no.
func (p RestartPlan) Confirmed(answer string) bool {
	answer = strings.TrimSpace(answer)
	if p.MustType {
		return answer == p.App
	}
	return strings.EqualFold(answer, "y") || strings.EqualFold(answer, "yes")
}

// TagChangeError is the refusal of a request to roll an App to another tag.
type TagChangeError struct{ App, Tag string }

func (e *TagChangeError) Error() string {
	return fmt.Sprintf("driftboard does not change tags (asked for %s:%s): the tag is declared in git, in the App's CR under %s "+
		"of the universe repo, and Hanzo CD reverts a patched tag. Commit the tag there; driftboard only restarts what is declared",
		e.App, e.Tag, CRDirectory)
}

// RefuseTagChange answers any request to change an App's tag.
func RefuseTagChange(app, tag string) error { return &TagChangeError{App: app, Tag: tag} }
