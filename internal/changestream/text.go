package changestream

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hanzoai/driftboard/internal/termtext"
	"github.com/hanzoai/driftboard/model"
)

// WriteJSON writes ev as one line of JSON (-o jsonl).
func WriteJSON(w io.Writer, ev Event) error {
	b, err := json.Marshal(ev)
	return writeJSON(w, b, err)
}

// WriteJSONIndented writes ev as one indented JSON document (-o json), the
// same object as WriteJSON's line: kubectl's `get -w -o json` stream.
func WriteJSONIndented(w io.Writer, ev Event) error {
	b, err := json.MarshalIndent(ev, "", "  ")
	return writeJSON(w, b, err)
}

func writeJSON(w io.Writer, b []byte, err error) error {
	if err != nil {
		return fmt.Errorf("encode event: %w", err)
	}
	_, err = w.Write(append(termtext.JSONSafe(b), '\n')) // exact values, nothing a terminal acts on
	return err
}

// WriteText writes ev as one readable line. Every value observed on a
// cluster is cleaned of control characters first: it is hostile text
// headed for a terminal.
func WriteText(w io.Writer, ev Event) error {
	_, err := io.WriteString(w, FormatText(ev)+"\n")
	return err
}

// FormatText renders ev as one line, without the newline.
func FormatText(ev Event) string {
	head := fmt.Sprintf("%s %-8s", ev.Time.UTC().Format(time.RFC3339), ev.Event)
	where := clean(ev.Cluster + "/" + ev.Namespace + "/" + ev.App)
	switch ev.Event {
	case KindSummary:
		s := ev.Summary
		var cs []string
		for _, c := range ev.Clusters {
			cs = append(cs, clusterText(c.Name, c.ClusterView))
		}
		return fmt.Sprintf("%s %d apps: %d red, %d yellow, %d ok, %d n/a; clusters: %s", head, s.Total,
			s.Verdicts.Red, s.Verdicts.Yellow, s.Verdicts.OK, s.Verdicts.Unknown, strings.Join(cs, ", "))
	case KindCluster:
		b, a := ev.Before.(*ClusterView), ev.After.(*ClusterView)
		line := fmt.Sprintf("%s %s %s → %s", head, clean(ev.Cluster), b.State, a.State)
		if a.Reason != "" {
			line += ": " + clean(a.Reason)
		}
		return line
	case KindCurrent, KindAdded:
		return fmt.Sprintf("%s %s %s", head, where, verdictText(ev.After.(*Verdict)))
	case KindDeleted:
		return fmt.Sprintf("%s %s (was %s)", head, where, verdictText(ev.Before.(*Verdict)))
	case KindChanged:
		b, a := ev.Before.(*Verdict), ev.After.(*Verdict)
		var parts []string
		for _, name := range ev.Changed {
			parts = append(parts, fmt.Sprintf("%s %s → %s", name, field(b, name), field(a, name)))
		}
		return fmt.Sprintf("%s %s %s", head, where, strings.Join(parts, "; "))
	}
	return head
}

func clusterText(name string, v ClusterView) string {
	s := clean(name) + " " + v.State
	if v.Reason != "" {
		s += " (" + clean(v.Reason) + ")"
	}
	return s
}

func verdictText(v *Verdict) string {
	s := fmt.Sprintf("%s drift %s %s declared %s running %s latest %s health %s rollout %s",
		field(v, "verdict"), v.Severity, field(v, "flags"), field(v, "declaredTag"), field(v, "runningTag"),
		field(v, "latestTag"), v.Health, v.Rollout)
	if len(v.Unknown) > 0 {
		s += " unknown " + field(v, "unknown")
	}
	if v.Git != nil {
		s += " git " + field(v, "git")
	}
	if v.Promotion != nil {
		s += " promotion " + field(v, "promotion")
	}
	return s
}

// field renders one verdict field for text, "-" when empty.
func field(v *Verdict, name string) string {
	var s string
	switch name {
	case "verdict": // as list and get print it
		s = v.Verdict
		if m, ok := model.ParseMark(s); ok {
			s = m.Word()
		}
	case "unknown":
		s = strings.Join(v.Unknown, ",")
	case "severity":
		s = v.Severity
	case "flags":
		s = strings.Join(v.Flags, ",")
		if s == "" {
			s = "no-flags"
		}
	case "declaredTag":
		s = v.DeclaredTag
	case "runningTag":
		s = v.RunningTag
	case "latestTag":
		s = v.LatestTag
	case "health":
		s = v.Health
	case "rollout":
		s = v.Rollout
	case "id":
		s = v.ID
	case "env":
		s = v.Env
	case "git":
		if v.Git != nil {
			s = model.GitCellAt(*v.Git)
		}
	case "promotion":
		s = promotionText(v.Promotion)
	}
	if s == "" {
		return "-"
	}
	return clean(s)
}

// clean is termtext.Sanitize: control, bidi and other invisible
// characters shown as visible escapes (\x1b, \u202e).
func clean(s string) string { return termtext.Sanitize(s) }
