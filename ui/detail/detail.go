package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/keymap"
	"github.com/hanzoai/driftboard/ui/styles"
)

// detailView shows one app in full. It re-reads the app from each new
// snapshot, so a rollout is followed live while it is open.
type detailView struct {
	key      model.Key
	offset   int
	height   int
	lines    int             // len(rendered), to bound scrolling
	rendered []string        // the detail's lines, laid out in Update
	decision *model.Decision // what this user may do here (from CheckRestart)
	digests  digestRead      // what the pods run, read when opened
	events   eventsWatch     // the app's Events, followed while open
	keys     keymap.Map
}

// Update scrolls; the root handles the actions offered in the detail.
func (d detailView) Update(msg tea.Msg) (detailView, tea.Cmd) {
	k := d.keys
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Up):
			d.scroll(-1)
		case key.Matches(msg, k.Down):
			d.scroll(1)
		case k.Paging(msg):
			d.scroll(k.PageStep(msg, d.height))
		case key.Matches(msg, k.Home):
			d.offset = 0
		case key.Matches(msg, k.End):
			d.scroll(d.lines)
		}
	case tea.MouseWheelMsg:
		switch msg.Mouse().Button {
		case tea.MouseWheelUp:
			d.scroll(-3)
		case tea.MouseWheelDown:
			d.scroll(3)
		}
	}
	return d, nil
}

func (d *detailView) scroll(delta int) {
	d.offset = max(0, min(d.offset+delta, d.lines-d.height))
}

func (m *Model) openDetail() tea.Cmd {
	r := m.board.selected()
	if r == nil {
		return nil
	}
	// seq carries on, so an answer for an earlier opening is stale.
	m.stopEvents()
	m.detail = detailView{key: r.Key(), keys: m.keys, digests: digestRead{seq: m.detail.digests.seq},
		events: eventsWatch{seq: m.detail.events.seq}}
	m.screen = screenDetail
	read := tea.Batch(m.readDigests(r), m.watchEvents())
	if m.refusal(r) == "" {
		return tea.Batch(checkRestart(m.ctx, m.fleet, r), read)
	}
	return read
}

func (m *Model) detailKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	switch {
	case key.Matches(msg, k.Back, k.Quit), msg.String() == "backspace":
		m.screen = screenBoard // q goes back, as in k9s and less; ctrl+c quits
		m.stopEvents()

	case key.Matches(msg, k.Up, k.Down, k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown, k.Home, k.End):
		m.detail, _ = m.detail.Update(msg)
	case key.Matches(msg, k.Restart):
		return m.openRestart(m.board.find(m.detail.key))
	case key.Matches(msg, k.YAML):
		return m.openYAML(m.board.find(m.detail.key))
	case key.Matches(msg, k.Logs):
		return m.openLogs(m.board.find(m.detail.key))
	case key.Matches(msg, k.Login):
		return m.startLogin()
	case key.Matches(msg, k.Help):
		m.openHelp()
	}
	return nil
}

// detailLines renders every fact of the app, one logical line per entry.
func (m *Model) detailLines(r *model.AppView, width int) []string {
	st := &m.st
	now := m.now()
	var out []string
	add := func(s ...string) { out = append(out, s...) }
	section := func(t string) { add("", st.Bold.Render(t)) }
	kv := func(k, v string) { add(wrapText(st.Dim.Render(fmt.Sprintf("%-16s", k))+format.Safe(v), width)...) }
	text := func(s string) { add(wrapText(format.Safe(s), width)...) } // a whole line of outside text

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
	add(m.tagTable(r, width)...)
	kv("release", releaseWords(r.Release, now))
	if r.Release.URL != "" {
		kv("release URL", r.Release.URL)
	}
	add(m.digestLines(r, width)...)

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
		add(wrapText(st.Sev[i].Pre+i.Glyph()+" "+format.Safe(string(f.Kind))+st.Sev[i].Post+"  "+format.Safe(msg), width)...)
	}
	switch {
	case r.WaitsOnRelease():
		add(wrapText(st.Sev[model.MarkUnknown].Pre+"? release not checked"+st.Sev[model.MarkUnknown].Post+
			"  no-release, zero-assets and stale are withheld until it is.", width)...)
	case r.ReleaseFlagsUnchecked():
		add(wrapText(st.Sev[model.MarkUnknown].Pre+"? release checks off"+st.Sev[model.MarkUnknown].Post+
			"  no-release, zero-assets and stale are not checked.", width)...)
	}
	if r.WaitsOnWorkload() {
		add(wrapText(st.Sev[model.MarkUnknown].Pre+"? workload not listed yet"+st.Sev[model.MarkUnknown].Post+
			"  un-rolled and floating-running are unknown until the cluster has synced.", width)...)
	}
	if r.Workload.Unreadable != "" {
		add(wrapText(st.Sev[model.MarkUnknown].Pre+"? workload unreadable"+st.Sev[model.MarkUnknown].Post+
			"  un-rolled and floating-running are unknown: "+format.Safe(r.Workload.Unreadable)+".", width)...)
	}

	add(m.gitLines(r, width)...)

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
		kv("rollout", rolloutWords(r))
		kv("health / phase", format.OrDash(string(r.Health))+" / "+format.OrDash(r.Phase))
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
	if f := m.inflight[r.Key()]; f != nil {
		kv("restarting", "requested by you at "+format.Clock(f.started, now))
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
			add(wrapText(st.ErrText.Render("✖ ")+format.Safe(p.Text), width)...)
		}
	}
	section("Labels")
	add(labelLines(r.Labels, width)...)

	section("What you may do")
	text(m.mayDo(r))
	section("Events") // last, as kubectl describe has them: the list grows
	add(m.eventLines(width)...)
	return out
}

func (m *Model) tagTable(r *model.AppView, width int) []string {
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
	return []string{m.st.Dim.Render(h.String()), v.String()}
}

func rolloutWords(r *model.AppView) string {
	w := r.Workload
	s := string(w.Rollout)
	if w.Rollout == model.RolloutProgressing {
		s = "progressing " + rolloutCell(r, nil)
	}
	if w.Message != "" {
		s += ": " + w.Message
	}
	return format.OrDash(s)
}

// mayDo says in words whether this user may restart this app, and why not.
func (m *Model) mayDo(r *model.AppView) string {
	if why := m.refusal(r); why != "" {
		return "restart: no — " + why
	}
	d := m.detail.decision
	switch {
	case d == nil:
		return "restart: checking permission…"
	case d.Allowed:
		via := ""
		if m.ident.Source != "" {
			via = ", login from " + m.ident.Source
		}
		return "restart: yes, as " + m.user() + " (" + m.ident.Principal.RoleName() + via + ") — press " + m.keys.Restart.Help().Key
	}
	return "restart: no — " + d.Reason
}
