package detail

import (
	"fmt"
	"strings"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/styles"
)

// detailLines renders every fact of the app, one logical line per entry.
func (d *View) detailLines(st *styles.Styles, f Facts, width int) []string {
	r, now := f.Row, f.Now
	var out []string
	add := func(s ...string) { out = append(out, s...) }
	section := func(t string) { add("", st.Bold.Render(t)) }
	kv := func(k, v string) { add(format.Wrap(st.Dim.Render(fmt.Sprintf("%-16s", k))+format.Safe(v), width)...) }
	text := func(s string) { add(format.Wrap(format.Safe(s), width)...) } // a whole line of outside text

	sev := r.Verdict().Mark
	add(st.Sev[sev].Pre + styles.MarkLabel(sev) + st.Sev[sev].Post + "  " + st.Title.Render(format.Safe(r.App)) +
		st.Dim.Render(format.Safe(fmt.Sprintf("  %s · %s/%s · cluster %s", r.Kind, r.Namespace, r.App, format.OrDash(r.Cluster)))))
	if r.Offline {
		add(st.WarnText.Render("▲ offline: this cluster's watch is down; the facts below may be out of date"))
	}
	kv("id", r.ID)
	kv("env / tenant", format.OrDash(r.Env)+" / "+format.OrDash(r.Tenant))
	kv("org / role", format.OrDash(r.Org)+" / "+format.OrDash(r.Role))
	kv("image", format.OrDash(r.Registry))
	switch {
	case r.DriftSince != nil:
		kv("drifting", "since "+format.Clock(*r.DriftSince, now)+" ("+format.ShortDuration(now.Sub(*r.DriftSince))+")")
	case len(r.Drift.Flags) > 0:
		kv("drifting", "since ? (the cluster does not say)")
	}

	section("Tags")
	add(tagTable(st, r, width)...)
	kv("release", releaseWords(r.Release, now))
	if r.Release.URL != "" {
		kv("release URL", r.Release.URL)
	}
	add(d.digestLines(st, r, width)...)

	section("Drift")
	switch {
	case len(r.Drift.Flags) > 0 || r.RunningUnknown():
	case r.ReleaseFlagsUnchecked(): // the release flags were not decided: not "no drift"
		add(st.OkText.Render("✓ no drift in the flags checked"))
	default:
		add(st.OkText.Render("✓ no drift"))
	}
	for _, f := range r.Drift.Flags {
		i := model.MarkOf(f.Severity)
		msg := f.Message
		if f.Kind == drift.DriftStale { // which way it points, plainly, and since when
			msg = model.StaleWords(r.DeclaredTag, r.LatestTag) + "."
			if p := r.Release.LatestPublished; !p.IsZero() {
				msg += " " + r.LatestTag + " was published " + format.Clock(p, now) + " (" + format.ShortDuration(now.Sub(p)) + " ago)."
			}
		}
		add(format.Wrap(st.Sev[i].Pre+i.Glyph()+" "+format.Safe(string(f.Kind))+st.Sev[i].Post+"  "+format.Safe(msg), width)...)
	}
	switch {
	case r.WaitsOnRelease():
		add(format.Wrap(st.Sev[model.MarkUnknown].Pre+"? release not checked"+st.Sev[model.MarkUnknown].Post+
			"  no-release, zero-assets and stale are withheld until it is.", width)...)
	case r.ReleaseFlagsUnchecked():
		add(format.Wrap(st.Sev[model.MarkUnknown].Pre+"? release checks off"+st.Sev[model.MarkUnknown].Post+
			"  no-release, zero-assets and stale are not checked.", width)...)
	}
	if r.WaitsOnWorkload() {
		add(format.Wrap(st.Sev[model.MarkUnknown].Pre+"? workload not listed yet"+st.Sev[model.MarkUnknown].Post+
			"  un-rolled and floating-running are unknown until the cluster has synced.", width)...)
	}
	if r.Workload.Unreadable != "" {
		add(format.Wrap(st.Sev[model.MarkUnknown].Pre+"? workload unreadable"+st.Sev[model.MarkUnknown].Post+
			"  un-rolled and floating-running are unknown: "+format.Safe(r.Workload.Unreadable)+".", width)...)
	}

	add(gitLines(st, r, width)...)
	add(promotionLines(st, f.Promotion, now, width)...)

	w := r.Workload
	section("Workload")
	switch w.Presence() {
	case model.WorkloadUnreadable:
		kv("workload", w.Unreadable+"; health unknown")
	case model.WorkloadPending:
		kv("workload", format.OrDash(string(w.Kind))+" "+format.OrDash(w.Name)+": "+w.Pending+"; health and running tag unknown")
	case model.WorkloadNoneByDesign:
		kv("workload", "none by design (role "+format.OrDash(r.Role)+": "+w.None+")")
	case model.WorkloadMissing:
		kv("workload", "not found ("+format.OrDash(string(w.Kind))+" "+format.OrDash(w.Name)+")")
	default:
		owned := "not owned by the App"
		if w.OwnedByApp {
			owned = "owned by the App"
		}
		kv("workload", fmt.Sprintf("%s %s (%s)", w.Kind, w.Name, owned))
		kv("replicas", fmt.Sprintf("%d desired · %d ready · %d updated · %d available", w.Desired, w.Ready, w.Updated, w.Available))
		kv("rollout", rolloutWords(r, f.Progress))
		kv("health / phase", model.HealthWords.Of(r.Health).Text+" / "+format.OrDash(r.Phase))
		if w.RestartedAt != "" {
			kv("last restart", restartWords(w.RestartedAt, w.RestartedBy, now))
		} else {
			kv("last restart", "none recorded")
		}
		if len(w.Digests) > 0 {
			kv("digests", strings.Join(w.Digests, " "))
		}
	}
	if u := r.Upgrade; u != nil {
		kv("upgrade", u.Words())
		for _, h := range u.History {
			kv("", strings.TrimSpace(format.OrDash(h.At)+" "+format.OrDash(h.Outcome)+" "+format.OrDash(h.Image)+" "+h.Message))
		}
	}
	if !f.Restarting.IsZero() {
		kv("restarting", "requested by you at "+format.Clock(f.Restarting, now))
	}

	section("Conditions")
	conds := append(append([]model.Condition(nil), r.Conditions...), w.Conditions...)
	if len(conds) == 0 {
		add(st.Dim.Render("none"))
	}
	for _, c := range conds {
		text(fmt.Sprintf("%s=%s %s %s", c.Type, c.Status, c.Reason, c.Message))
	}
	section("Endpoints")
	if len(r.Endpoints) == 0 {
		add(st.Dim.Render("none"))
	}
	for _, e := range r.Endpoints {
		text(e)
	}
	if len(r.Problems) > 0 {
		section("Problems")
		for _, p := range r.Problems {
			add(format.Wrap(st.ErrText.Render("✖ ")+format.Safe(p.Text), width)...)
		}
	}
	section("Labels")
	add(labelLines(r.Labels, width)...)

	section("What you may do")
	text(f.MayDo)
	section("Events") // last, as kubectl describe has them: the list grows
	add(d.eventLines(st, now, width)...)
	return out
}

func tagTable(st *styles.Styles, r *model.AppView, width int) []string {
	spec, running := r.Workload.SpecTag, r.RunningTag
	if r.RunningUnknown() {
		spec, running = "?", "?" // not listed yet, or unreadable: unknown, not none
	}
	cells := [][2]string{
		{"declared (App)", r.DeclaredTag}, {"workload spec", spec},
		{"running", running}, {"latest release", r.LatestTag},
	}
	colW := max(12, min(22, (width-2)/4))
	var h, v strings.Builder
	for _, c := range cells { // a cut value keeps a space before the next column
		format.WriteCell(&h, c[0], colW-1)
		format.WriteCell(&v, format.OrDash(c[1]), colW-1)
		h.WriteByte(' ')
		v.WriteByte(' ')
	}
	return []string{st.Dim.Render(h.String()), v.String()}
}

// rolloutWords is the workload's rollout; progress is the board's cell for
// one in progress.
func rolloutWords(r *model.AppView, progress string) string {
	w := r.Workload
	s := string(w.Rollout)
	if w.Rollout == model.RolloutProgressing {
		s = "progressing " + progress
	}
	if w.Message != "" {
		s += ": " + w.Message
	}
	return format.OrDash(s)
}
