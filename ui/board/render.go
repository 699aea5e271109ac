package board

import (
	"strconv"
	"strings"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/styles"
)

// Restart is what a row shows of a restart of it in flight: "restarting…"
// until its rollout has been seen.
type Restart struct{ SawProgress bool }

// Decor is what the root adds to the table each frame.
type Decor struct {
	Restarts map[model.Key]Restart // rows with a restart in flight: the spinner, never cached
	Spinner  string
	Empty    string // the table's words when no row is shown at all
}

// Render writes the column header and the visible window of rows: only
// height rows are rendered whatever the fleet size.
func (b *View) Render(sb *strings.Builder, st *styles.Styles, width, height int, d Decor) {
	cols, pad := b.columns(width)
	var hb strings.Builder
	format.WriteSpaces(&hb, gutterWidth)
	for i, c := range cols {
		if i > 0 {
			hb.WriteByte(' ')
		}
		title := c.title
		if c.id == colTags && c.width >= format.TextWidth("DECLARED→RUNNING") {
			title = "DECLARED→RUNNING"
		}
		format.WriteCell(&hb, title, c.width)
	}
	format.WriteSpaces(&hb, pad)
	sb.WriteString(st.ColHeader.Render(hb.String()))
	sb.WriteByte('\n')

	body := height - 1
	if b.RowCount() == 0 {
		msg := d.Empty
		if b.snap != nil && b.snap.Len() > 0 {
			msg = "no apps match the filter (esc clears it)"
		}
		format.WriteCell(sb, "  "+msg, width)
		for i := 1; i < body; i++ {
			sb.WriteByte('\n')
			format.WriteSpaces(sb, width)
		}
		return
	}
	visible := make([]*model.AppView, 0, body)
	if b.view != nil {
		b.view.Range(b.offset, func(_ int, r *model.AppView) bool {
			visible = append(visible, r)
			return len(visible) < body
		})
	}
	end := b.offset + len(visible)
	b.rows.begin(layoutOf(st, width, cols))
	var line strings.Builder
	for i := b.offset; i < b.offset+body; i++ {
		if i > b.offset {
			sb.WriteByte('\n')
		}
		if i >= end {
			format.WriteSpaces(sb, width)
			continue
		}
		r := visible[i-b.offset]
		selected, marked := i == b.cursor, b.marks.set[r.Key()]
		var fl *Restart
		if rs, ok := d.Restarts[r.Key()]; ok {
			fl = &rs
		}
		render := func() string {
			line.Reset()
			writeRow(&line, st, cols, pad, r, selected, marked, fl, d.Spinner, b.promotions[r.Key()])
			return line.String()
		}
		if fl != nil || b.promotions[r.Key()] != "" { // the spinner turns, the promotion moves: never cached
			sb.WriteString(render())
			continue
		}
		sb.WriteString(b.rows.line(r, selected, marked, render))
	}
	b.rows.end()
}

// columns is the table's columns at width, and the padding after them.
func (b *View) columns(width int) ([]placed, int) {
	want := b.want
	want[colPromote] = b.promoteWidth
	cols := layoutColumns(width, b.clusters > 1, &want, &b.ident)
	used := gutterWidth + len(cols) - 1
	for _, c := range cols {
		used += c.width
	}
	return cols, width - used
}

func writeColumn(b *strings.Builder, st *styles.Styles, c placed, r *model.AppView, fl *Restart, coloured bool, promo string) {
	w := c.width
	switch c.id {
	case colPromote:
		format.WriteCell(b, format.OrDash(promo), w)
	case colSeverity:
		st.WriteSeverity(b, r.Verdict().Mark, w, coloured)
	case colApp:
		format.WriteCell(b, r.App, w)
	case colEnv:
		format.WriteCell(b, format.OrDash(r.Env), w)
	case colNamespace:
		format.WriteCell(b, r.Namespace, w)
	case colCluster:
		format.WriteCell(b, r.Cluster, w)
	case colTags:
		format.WriteCell(b, fitTags(r, w), w)
	case colLatest:
		format.WriteCell(b, format.OrDash(r.LatestTag), w)
	case colHealth:
		if r.Offline {
			format.WriteCell(b, model.HealthWords.Of(model.HealthOffline).Board, w)
			return
		}
		h := model.HealthWords.Of(r.Health).Board
		if coloured {
			hw := st.Health[r.Health]
			b.WriteString(hw.Pre)
			format.WriteCell(b, h, w)
			b.WriteString(hw.Post)
			return
		}
		format.WriteCell(b, h, w)
	case colPhase:
		format.WriteCell(b, format.OrDash(r.Phase), w)
	case colRollout:
		if coloured && (r.Workload.Rollout == model.RolloutStuck || r.Workload.Rollout == model.RolloutPaused) {
			hw := st.Health[model.HealthYellow]
			if r.Workload.Rollout == model.RolloutStuck {
				hw = st.Health[model.HealthRed]
			}
			b.WriteString(hw.Pre)
			format.WriteCell(b, RolloutCell(r, fl), w)
			b.WriteString(hw.Post)
			return
		}
		format.WriteCell(b, RolloutCell(r, fl), w)
	case colGit:
		cell := gitCell(r.Git)
		if coloured && r.Git.State == model.GitOutOfSync {
			hw := st.Health[model.HealthYellow]
			b.WriteString(hw.Pre)
			format.WriteCell(b, cell, w)
			b.WriteString(hw.Post)
			return
		}
		format.WriteCell(b, cell, w)
	case colFlags:
		writeFlags(b, st, r, w, coloured)
	}
}

// gitCell is the GIT column's short word (3 columns at most); the query
// takes each back (git:ok, git:out, git:-, git:?).
func gitCell(g model.GitSync) string {
	if w := model.GitStateWords.Of(g.State); w.Board != "" {
		return w.Board
	}
	return model.GitStateWords.Of(model.GitUnknown).Board
}

// RolloutCell is "3/3" at rest, "2/3 ↻ v1.4.0" while rolling, and says so
// when stuck, paused, or a restart of ours (fl) has not started rolling yet.
func RolloutCell(r *model.AppView, fl *Restart) string {
	w := r.Workload
	if p := w.Presence(); p != model.WorkloadFound {
		switch {
		case fl != nil:
			return "restarting…"
		case p == model.WorkloadUnreadable:
			return "unreadable"
		case p == model.WorkloadPending:
			return "pending"
		case p == model.WorkloadNoneByDesign:
			return "none (" + w.None + ")"
		}
		return "no workload"
	}
	ready := strconv.Itoa(int(w.Ready)) + "/" + strconv.Itoa(int(w.Desired))
	switch w.Rollout {
	case model.RolloutProgressing:
		// new pods that are also ready: "3/3 ↻" only once the rollout is through
		upd := strconv.Itoa(int(min(w.Updated, w.Ready))) + "/" + strconv.Itoa(int(w.Desired))
		if w.TargetTag != "" {
			return upd + " ↻ " + w.TargetTag
		}
		return upd + " ↻"
	case model.RolloutStuck:
		return "stuck " + ready
	case model.RolloutPaused:
		return "paused " + ready
	}
	if fl != nil && !fl.SawProgress {
		return "restarting…"
	}
	return ready
}

// unknownRelease marks a row whose release was not checked (legend in help).
const unknownRelease = "NR?"

// rowWidths is what one row's content wants in each measured column, with
// length arithmetic rather than building the cells (colStats keeps the
// maximum over the view's rows as they change).
func rowWidths(r *model.AppView) [numCols]int {
	var w [numCols]int
	w[colApp] = format.TextWidth(r.App)
	w[colNamespace] = format.TextWidth(r.Namespace)
	w[colCluster] = format.TextWidth(r.Cluster)
	w[colLatest] = format.TextWidth(r.LatestTag)
	w[colPhase] = format.TextWidth(r.Phase)
	tags := format.TextWidth(r.DeclaredTag)
	if r.DeclaredTag != r.RunningTag {
		tags += 1 + max(1, format.TextWidth(r.RunningTag))
	}
	w[colTags] = tags
	ro := 3 + digits(r.Workload.Ready) + digits(r.Workload.Desired)
	switch {
	case !r.Workload.Found:
		ro = format.TextWidth(RolloutCell(r, nil))
	case r.Workload.Rollout != model.RolloutComplete:
		ro = format.TextWidth(RolloutCell(r, nil))
	}
	w[colRollout] = ro
	fw := 3*len(r.Drift.Flags) - 1
	if r.WaitsOnRelease() {
		fw += 1 + len(unknownRelease)
	}
	if len(r.Problems) > 0 {
		fw += 1 + format.TextWidth(problemCell(r.Problems))
	}
	w[colFlags] = fw
	if r.Git.KindServed() && r.Git.State != "" { // else 0: no GIT column for it
		w[colGit] = format.TextWidth(gitCell(r.Git))
	}
	return w
}

func digits(n int32) int {
	d := 1
	for n >= 10 || n <= -10 {
		n /= 10
		d++
	}
	if n < 0 {
		d++
	}
	return d
}
