package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"

	"github.com/hanzoai/driftboard/internal/termtext"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/store"
)

// textOut is where a command prints text for a person: values were
// sanitised where they were formatted, and this guard escapes any control
// character that slipped through. Data formats (json, yaml) bypass it.
func textOut(w io.Writer) io.Writer { return termtext.NewWriter(w) }

// ListOutput is the stable JSON (and YAML) document of `driftboard list`:
// the design document's shape.
type ListOutput struct {
	Apps    []*model.AppView `json:"apps"`
	Summary store.Summary    `json:"summary"`
}

func newListOutput(rows []*model.AppView) ListOutput {
	if rows == nil {
		rows = []*model.AppView{} // "apps": [], never null
	}
	return ListOutput{Apps: rows, Summary: store.Summarize(rows)}
}

// writeJSON encodes v exactly; characters a terminal would act on are
// \u-escaped (the same values to any JSON reader).
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(termtext.JSONSafe(buf.Bytes()))
	return err
}

// writeTable prints rows kubectl-style; wide adds the columns a script or a
// wide terminal wants. The columns are the same from run to run (CLUSTER
// and GIT included, whatever the rows), so a script's $5 is always CLUSTER.
func writeTable(w io.Writer, rows []*model.AppView, wide bool, now time.Time) error {
	return writeTableHeaders(w, rows, wide, now, true)
}

// writeTableHeaders is writeTable, the header line only when headers.
func writeTableHeaders(w io.Writer, rows []*model.AppView, wide bool, now time.Time, headers bool) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	head := []string{"SEV", "APP", "ENV", "NAMESPACE", "CLUSTER", "DECLARED", "RUNNING", "LATEST", "HEALTH", "PHASE", "GIT", "DRIFT"}
	if wide {
		head = append(head, "READY", "ROLLOUT", "RELEASE", "ORG", "DRIFTING", "ENDPOINTS")
	}
	if headers {
		fmt.Fprintln(tw, strings.Join(head, "\t"))
	}
	for _, r := range rows {
		cols := []string{sevCell(r), r.App, dash(r.Env), r.Namespace, dash(r.Cluster),
			dash(r.DeclaredTag), runningCell(r), dash(r.LatestTag), model.HealthWords.Of(r.Health).Text, dash(r.Phase)}
		if wide {
			cols = append(cols, model.GitCellAt(r.Git))
		} else {
			cols = append(cols, model.GitCell(r.Git))
		}
		cols = append(cols, flagList(r))
		if wide {
			ready, rollout := workloadCells(r.Workload)
			cols = append(cols, ready, rollout, string(r.Release.State), dash(r.Org),
				driftingFor(r, now), dash(strings.Join(r.Endpoints, ",")))
		}
		for i := range cols { // a tab or line break inside a value would forge cells
			cols[i] = oneField(termtext.Sanitize(cols[i]))
		}
		fmt.Fprintln(tw, strings.Join(cols, "\t"))
	}
	return tw.Flush()
}

// oneField keeps a cell one field for scripts that split lines on
// whitespace (awk, cut, read): each run of spaces inside a value from the
// cluster (a phase, a revision) is printed as one "_"; -o json is exact.
func oneField(s string) string {
	if !strings.ContainsFunc(s, unicode.IsSpace) {
		return s
	}
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), "_")
}

// sevCell is the row's mark (its Verdict, as on the board): n/a when
// nothing wrong was seen but something was not.
func sevCell(r *model.AppView) string { return r.Verdict().Mark.Word() }

// runningCell is the running tag, "?" when it was not observed: unknown is
// not none ("-").
func runningCell(r *model.AppView) string {
	if r.RunningUnknown() {
		return "?"
	}
	return dash(r.RunningTag)
}

func flagList(r *model.AppView) string {
	var parts []string
	for _, f := range r.Drift.Flags {
		parts = append(parts, model.FlagWords.Of(f.Kind).Text)
	}
	if r.WaitsOnRelease() {
		parts = append(parts, "release?("+string(r.Release.State)+")")
	}
	for _, p := range r.Problems { // the board's "!" marker, by kind; failing pods by name
		if l := p.Label(); l != "" {
			parts = append(parts, "!"+strings.ReplaceAll(l, " ", ""))
			continue
		}
		parts = append(parts, "!"+string(p.Kind))
	}
	if r.Offline {
		parts = append(parts, "(offline)")
	}
	return dash(strings.Join(parts, ","))
}

func dash[S ~string](s S) string {
	if s == "" {
		return "-"
	}
	return string(s)
}

// driftingFor is the DRIFTING column: "-" without drift, "?" when the
// cluster does not say since when.
func driftingFor(r *model.AppView, now time.Time) string {
	if len(r.Drift.Flags) == 0 {
		return "-"
	}
	return since(r.DriftSince, now)
}

func since(t *time.Time, now time.Time) string {
	if t == nil {
		return "?"
	}
	return now.Sub(*t).Truncate(time.Second).String()
}

// workloadCells are -o wide's READY and ROLLOUT. Without a workload READY is
// not "0/0" (that reads as scaled to zero): "-" where there is none, "?"
// where it is not known yet or not readable; ROLLOUT says which, as the
// board's ROLLOUT does.
func workloadCells(w model.WorkloadView) (ready, rollout string) {
	switch w.Presence() {
	case model.WorkloadFound:
		return fmt.Sprintf("%d/%d", w.Ready, w.Desired), dash(string(w.Rollout))
	case model.WorkloadUnreadable:
		return "?", "unreadable"
	case model.WorkloadPending:
		return "?", "pending"
	case model.WorkloadNoneByDesign:
		return "-", "none(" + w.None + ")"
	}
	return "-", "no-workload"
}
