package logs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/logbuf"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/styles"
)

// Choice is one pod and container the log view can stream; Hint says how
// the pod is doing.
type Choice struct{ Pod, Container, Hint string }

func choicesOf(pods []model.LogPod) []Choice {
	var out []Choice
	for _, p := range pods {
		hint := "ready"
		switch {
		case p.Waiting != "":
			hint = p.Waiting
		case !p.Ready:
			hint = "not ready"
		}
		if p.Restarts > 0 {
			hint += fmt.Sprintf(" · %d restarts", p.Restarts)
		}
		for _, c := range p.Containers {
			out = append(out, Choice{Pod: p.Name, Container: c, Hint: hint})
		}
	}
	return out
}

// Layout lays out the view for a screen of width and height: the header,
// then the body from the top line, or backwards from the last one when
// tailing; only the lines on screen are wrapped and highlighted.
func (l *View) Layout(st *styles.Styles, width, height int) {
	l.header = packParts(l.headerParts(st), st.Dim.Render(" · "), width, 2)
	body := max(1, height-3-len(l.header))
	l.height = body
	l.rows, l.below = l.rows[:0], 0
	if msg := l.empty(st); msg != "" {
		l.rows = append(l.rows, msg)
		return
	}
	first, n := l.ring.Dropped(), l.ring.Len()
	render := func(i int) []string {
		line := highlight(l.ring.At(i-first), l.search.pattern, st.Selected)
		if l.wrap {
			return format.Wrap(line, width)
		}
		return []string{line}
	}
	if l.tail {
		var rows []string
		for i := first + n - 1; i >= first && len(rows) < body; i-- {
			rows = append(render(i), rows...)
		}
		l.rows = append(l.rows, rows[max(0, len(rows)-body):]...)
		return
	}
	l.top = max(first, min(l.top, first+n-1))
	i := l.top
	for ; i < first+n && len(l.rows) < body; i++ {
		l.rows = append(l.rows, render(i)...)
	}
	l.below = first + n - i
	l.rows = l.rows[:min(len(l.rows), body)]
}

// empty says why there are no lines to show, or "".
func (l *View) empty(st *styles.Styles) string {
	switch {
	case l.listing:
		return st.Dim.Render("listing the pods…")
	case model.IsNotAvailable(l.err) && l.ring.Len() == 0:
		return st.Dim.Render(format.Safe(l.err.Error()))
	case l.err != nil && l.ring.Len() == 0:
		return st.ErrText.Render("could not read the logs: ") + format.Safe(l.err.Error())
	case len(l.pods) == 0:
		return st.Dim.Render("no pods")
	case l.pod == "":
		return st.Dim.Render("no container chosen · " + l.keys.LogPick.Help().Key + " picks one")
	case l.opening:
		return st.Dim.Render("opening the stream…")
	case l.ring.Len() > 0:
		return ""
	case l.streaming:
		return st.Dim.Render("no lines yet (waiting for the container to write)")
	}
	return st.Dim.Render("the log is empty")
}

// highlight marks each occurrence of pattern in an already sanitised line.
func highlight(line, pattern string, on styles.Wrap) string {
	if pattern == "" || on.Pre == "" {
		return line
	}
	var sb strings.Builder
	for {
		i := matchAt(line, pattern)
		if i < 0 {
			sb.WriteString(line)
			return sb.String()
		}
		sb.WriteString(line[:i] + on.Pre + line[i:i+len(pattern)] + on.Post)
		line = line[i+len(pattern):]
	}
}

// packParts joins parts with sep into at most n lines of width (greedy);
// what does not fit on the last line is cut when drawn.
func packParts(parts []string, sep string, width, n int) []string {
	var out []string
	line := ""
	for _, p := range parts {
		switch {
		case line == "":
			line = p
		case len(out) < n-1 && format.TextWidth(ansi.Strip(line+sep+p)) > width:
			out, line = append(out, line), p
		default:
			line += sep + p
		}
	}
	return append(out, line)
}

// headerParts name what is shown and how: pod, container, the switches,
// the stream's state and the lines dropped.
func (l *View) headerParts(st *styles.Styles) []string {
	parts := []string{st.Title.Render("Logs " + format.Safe(l.key.Namespace+"/"+l.key.Name))}
	if l.pod != "" {
		parts = append(parts, "pod "+format.Safe(l.pod), "container "+format.Safe(l.container))
	}
	if l.previous {
		parts = append(parts, st.WarnText.Render("previous instance"))
	}
	switch {
	case l.streaming && l.follow:
		parts = append(parts, st.OkText.Render("following"))
	case l.streaming:
		parts = append(parts, "reading")
	case l.ended && l.err != nil:
		parts = append(parts, st.ErrText.Render("stream failed: ")+format.Safe(l.err.Error()))
	case l.ended:
		parts = append(parts, "stream ended")
	case l.pod != "" && !l.opening && !l.follow:
		parts = append(parts, "not following ("+l.keys.LogFollow.Help().Key+" follows)")
	}
	if d := l.ring.Dropped(); d > 0 {
		keeps := fmt.Sprintf("keeps %d", l.ring.Cap())
		if l.ring.ByteBound() {
			keeps += fmt.Sprintf(" lines or %d MiB", logbuf.MaxBytes>>20)
		}
		parts = append(parts, st.WarnText.Render(fmt.Sprintf("▲ %d older lines dropped (%s)", d, keeps)))
	}
	return parts
}

// Render writes the view under the board's title line, w columns wide:
// the header, the body, then the search line, a note or the board's
// status bar (statusBar; quiet: it says nothing now), and the keys.
func (l View) Render(sb *strings.Builder, st *styles.Styles, w int, statusBar string, quiet bool) {
	k := l.keys
	for _, line := range l.header {
		sb.WriteString(format.FitLine(" "+line, w))
		sb.WriteByte('\n')
	}
	for i := 0; i < l.height; i++ {
		line := ""
		if i < len(l.rows) {
			line = " " + l.rows[i]
		}
		sb.WriteString(format.FitLine(line, w))
		sb.WriteByte('\n')
	}
	switch s := l.search; {
	case s.typing:
		sb.WriteString(format.FitLine("/"+format.Safe(s.text)+"█", w))
	case s.note != "":
		sb.WriteString(format.FitLine(st.WarnText.Render(format.Safe(s.note)), w))
	case l.below > 0 && quiet:
		lines := "lines"
		if l.below == 1 {
			lines = "line"
		}
		sb.WriteString(format.FitLine(st.Dim.Render(fmt.Sprintf("↓ %d more %s below · %s the latest", l.below, lines, k.End.Help().Key)), w))
	default:
		sb.WriteString(statusBar)
	}
	sb.WriteByte('\n')
	onOff := func(b bool) string { return map[bool]string{true: "on", false: "off"}[b] }
	hints := []string{
		k.Quit.Help().Key + "/" + k.Back.Help().Key + " back",
		k.LogFollow.Help().Key + " follow " + onOff(l.follow),
		k.LogPrevious.Help().Key + " previous " + onOff(l.previous),
		k.LogWrap.Help().Key + " wrap " + onOff(l.wrap),
		k.Filter.Help().Key + " search · " + k.NextProblem.Help().Key + "/" + k.PrevProblem.Help().Key,
	}
	if len(choicesOf(l.pods)) > 1 {
		hints = append(hints, k.LogPick.Help().Key+" pod/container")
	}
	hints = slices.Concat(hints, []string{k.Help.Help().Key + " help"})
	sb.WriteString(format.FitLine(st.Dim.Render(strings.Join(hints, " · ")), w))
}
