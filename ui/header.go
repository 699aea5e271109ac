package ui

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
	"github.com/hanzoai/driftboard/ui/format"
)

// titleLine: name, read-only badge, who you are and the token's time left,
// then each cluster's connection state.
func (m *Model) titleLine(width int) string {
	st := &m.st
	parts := []string{st.Title.Render("driftboard")}
	if m.opts.ReadOnly {
		parts = append(parts, st.Badge.Render(" READ-ONLY "))
	}
	if m.spinning && m.busy() {
		parts = append(parts, m.spin.View())
	}
	sep := st.Dim.Render(" │ ")
	cl := m.clusterWords()
	for _, compact := range []bool{false, true} {
		line := strings.Join(append(parts, m.identityWords(compact)), sep)
		if cl != "" {
			line += sep + cl
		}
		if compact || ansi.StringWidth(line) <= width {
			return format.FitLine(line, width)
		}
	}
	return ""
}

// identityWords is who you are; compact drops the role for narrow terminals.
func (m *Model) identityWords(compact bool) string {
	st := &m.st
	now := m.now()
	id := m.ident
	switch {
	case m.identity == nil:
		return st.WarnText.Render("not logged in — read only")
	case !m.identKnown:
		return st.Dim.Render("checking login…")
	case id.LoggedIn(now):
		p := id.Principal
		s := st.Bold.Render(format.Safe(p.User))
		if !compact {
			s += st.Dim.Render(" (" + format.Safe(p.RoleName()) + ")")
		}
		if !id.Expiry.IsZero() {
			left := id.Expiry.Sub(now)
			w := "token " + format.ShortDuration(left) + " left"
			if compact {
				w = format.ShortDuration(left) + " left"
			}
			if left < 5*time.Minute {
				s += " " + st.WarnText.Render(w)
			} else {
				s += " " + st.Dim.Render(w)
			}
		}
		return s
	}
	login := m.keys.Login.Help().Key + " to " + m.loginWords() // follows a rebinding
	switch {
	case id.Principal != nil && id.Err == nil:
		return st.ErrText.Render("session expired") + st.Dim.Render(" — "+login)
	case id.Err != nil:
		return st.ErrText.Render(format.OneLine(id.Err.Error())) + st.Dim.Render(" — "+login)
	}
	return st.WarnText.Render("not logged in — read only") + st.Dim.Render(" ("+login+")")
}

// clusterWords is each cluster's state: live, syncing, reconnecting since, failed: why.
func (m *Model) clusterWords() string {
	st := &m.st
	s := m.board.Snap()
	if s == nil || len(s.Clusters) == 0 {
		if len(m.opts.Contexts) > 0 {
			return st.Dim.Render(format.Safe(strings.Join(m.opts.Contexts, " ")) + " connecting")
		}
		return ""
	}
	now := m.now()
	out := make([]string, 0, len(s.Clusters))
	for _, c := range s.Clusters {
		switch c.Phase {
		case model.ConnLive:
			out = append(out, format.Safe(c.Name)+" "+st.OkText.Render("live"))
		case model.ConnSyncing:
			out = append(out, format.Safe(c.Name)+" "+st.WarnText.Render(format.OneLine(c.SyncingWords())))
		case model.ConnReconnecting:
			w := "reconnecting since " + format.Clock(c.Since, now) + " (" + format.ShortDuration(now.Sub(c.Since)) + ")"
			out = append(out, format.Safe(c.Name)+" "+st.WarnText.Render(w))
		case model.ConnUnresponsive:
			w := "unresponsive since " + format.Clock(c.Since, now) + " (" + format.ShortDuration(now.Sub(c.Since)) + ")"
			out = append(out, format.Safe(c.Name)+" "+st.ErrText.Render(w))
		case model.ConnFailed:
			out = append(out, format.Safe(c.Name)+" "+st.ErrText.Render(format.OneLine(c.FailedWords(now))))
		default:
			out = append(out, format.Safe(c.Name)+" "+string(c.Phase))
		}
	}
	return strings.Join(out, " · ")
}

// summaryLine: counts by severity, how many rows are shown, sort, filters,
// and how fresh the data is.
func (m *Model) summaryLine(width int) string {
	st := &m.st
	b := &m.board
	var parts []string
	if s := b.Snap(); s != nil {
		v := s.Summary.Verdicts
		counts := make([]string, 0, 6)
		count := func(m model.Mark, n int, word string) {
			counts = append(counts, st.Sev[m].Pre+m.Glyph()+" "+strconv.Itoa(n)+" "+word+st.Sev[m].Post)
		}
		for _, m := range []model.Mark{model.MarkRed, model.MarkYellow, model.MarkOK} {
			count(m, v.Of(m), m.Word())
		}
		// ? rows by why: neither ok nor drift
		for _, u := range []struct {
			n    int
			word string
		}{{v.Pending, "pending"}, {v.Unreadable, "unreadable"}, {v.Unchecked, "unchecked"}} {
			if u.n > 0 {
				count(model.MarkUnknown, u.n, u.word)
			}
		}
		parts = append(parts, strings.Join(counts, "  "))
		shown := strconv.Itoa(b.RowCount()) + "/" + strconv.Itoa(s.Summary.Total) + " shown"
		if b.RowCount() > b.Height() { // where am I, when the rows do not fit
			shown = "row " + strconv.Itoa(b.Cursor()+1) + " · " + shown
		}
		parts = append(parts, shown)
	} else {
		parts = append(parts, "loading…")
	}
	if n := m.board.MarkCount(); n > 0 {
		parts = append(parts, st.Accent.Render(strconv.Itoa(n)+" marked"))
	}
	parts = append(parts, "sort: "+b.Sort().String())
	var f []string
	if q := m.filter.Text(); q != "" {
		f = append(f, "/"+q)
	}
	if b.Env() != "" {
		f = append(f, "env="+string(b.Env()))
	}
	if b.OnlyDrifted() {
		f = append(f, "only drifted")
	}
	if len(f) > 0 {
		parts = append(parts, st.Accent.Render("filter: "+strings.Join(f, " ")))
	}
	if s := b.Snap(); s != nil { // after the filter, which a narrow line must keep
		if w := m.releaseWords(s); w != "" {
			parts = append(parts, w)
		}
	}
	if s := b.Snap(); s != nil && !s.TakenAt.IsZero() {
		parts = append(parts, st.Dim.Render("updated "+format.Clock(s.TakenAt, m.now())))
	}
	return format.FitLine(strings.Join(parts, st.Dim.Render(" │ ")), width)
}

// releaseWords: how many rows wait on a release check, and whether checks
// are off, anonymous, held back by GitHub, or starved (the rate budget left
// stretched the refresh interval).
func (m *Model) releaseWords(s *store.Snapshot) string {
	st := &m.st
	rc := s.Releases
	if rc.Off {
		return st.Dim.Render("release checks off")
	}
	var w []string
	now := m.now()
	if rc.Failing != "" {
		w = append(w, releaseFailing(rc, s.Summary.WaitingOnRelease, now))
	} else if n := s.Summary.WaitingOnRelease; n > 0 {
		rows := " rows wait"
		if n == 1 {
			rows = " row waits"
		}
		w = append(w, strconv.Itoa(n)+rows+" on release checks")
	}
	limited := now.Before(rc.LimitedUntil)
	switch {
	case limited:
		w = append(w, "GitHub rate-limited until "+format.Clock(rc.LimitedUntil, now))
	case rc.Anonymous:
		w = append(w, "GitHub anonymous (60/h)")
	}
	if rc.Starved && !limited {
		w = append(w, "releases re-read every "+format.ShortDuration(time.Duration(rc.RefreshSeconds)*time.Second)+" (rate budget)")
	}
	if len(w) == 0 {
		return ""
	}
	return st.WarnText.Render(strings.Join(w, " · "))
}

// statusBar is the query line while typing, else the last message, else a
// notice about stale clusters.
func (m *Model) statusBar(width int) string {
	st := &m.st
	if m.filter.Active() || m.filter.Err() != nil {
		return m.filter.Render(st, width)
	}
	if m.status.text != "" {
		if m.status.bad {
			return format.FitLine(st.ErrText.Render("✖ ")+format.Safe(m.status.text), width)
		}
		return format.FitLine(format.Safe(m.status.text), width)
	}
	if s := m.board.Snap(); s != nil {
		for _, c := range s.Clusters {
			switch c.Phase {
			case model.ConnReconnecting:
				now := m.now()
				return format.FitLine(st.WarnText.Render("▲ "+format.Safe(c.Name)+" reconnecting since "+format.Clock(c.Since, now)+
					" ("+format.ShortDuration(now.Sub(c.Since))+"): its rows are offline (dimmed)"), width)
			case model.ConnUnresponsive:
				now := m.now()
				return format.FitLine(st.WarnText.Render("▲ "+format.Safe(c.Name)+" unresponsive since "+format.Clock(c.Since, now)+
					" ("+format.ShortDuration(now.Sub(c.Since))+"): no event and no health check answered; its rows are offline (dimmed)"), width)
			case model.ConnSyncing:
				if c.Reason != "" { // a call of the first sync fails and is retried: say why, in full
					return format.FitLine(st.WarnText.Render("▲ "+format.Safe(c.Name)+" "+format.OneLine(c.SyncingWords())), width)
				}
			case model.ConnFailed:
				return format.FitLine(st.WarnText.Render("▲ "+format.Safe(c.Name)+" "+format.OneLine(c.FailedWords(m.now()))+" — its rows are offline (dimmed)"), width)
			}
			if len(c.Notices) > 0 {
				return format.FitLine(st.Dim.Render(format.Safe(c.Name+": "+strings.Join(c.Notices, "; "))), width)
			}
		}
	}
	return strings.Repeat(" ", width)
}
