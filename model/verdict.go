package model

import (
	"encoding/json"

	"github.com/hanzoai/driftboard/drift"
)

// Mark is what a row shows as a whole, in one glyph and word: the board's
// DRIFT cell, list's SEV, get's Severity, watch's verdict, sev:, the sort,
// the header's counts and --fail-on. The design's drift severity is one of
// its inputs and stays its own field (Drift.Severity).
//
// Marks are ordered by rank, and a row takes the highest that applies:
// observed trouble beats unknown (a red or yellow seen is shown, whatever
// else is unknown; Verdict.Unknown still says what is), and unknown beats
// ok (✓ is never shown over something not observed).
type Mark uint8

const (
	MarkOK      Mark = iota // no drift, workload observed and healthy (or none by design), nothing unknown
	MarkUnknown             // nothing wrong observed, but something not observed
	MarkYellow              // yellow drift or health, or a problem that is not red
	MarkRed                 // red drift or health, a missing workload, failing pods
)

// String is the mark's JSON and query value: ok, unknown, yellow, red.
func (m Mark) String() string { return MarkWords[m].Name }

// Word is the mark as text prints it (? rows print n/a).
func (m Mark) Word() string { return MarkWords[m].Text }

// Glyph is the mark's one-column glyph.
func (m Mark) Glyph() string { return MarkWords[m].Board }

// MarshalText writes the mark's String.
func (m Mark) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads any word ParseMark reads.
func (m *Mark) UnmarshalText(b []byte) error {
	v, ok := ParseMark(string(b))
	if !ok {
		return &markError{string(b)}
	}
	*m = v
	return nil
}

type markError struct{ s string }

func (e *markError) Error() string { return "unknown mark " + e.s }

// ParseMark reads a mark as any output prints it: its value, word or glyph.
func ParseMark(s string) (Mark, bool) {
	w, ok := MarkWords.Lookup(s)
	return w.Value, ok
}

// MarkOf is the mark of one drift severity (a flag's, in the detail).
func MarkOf(s drift.DriftSeverity) Mark {
	switch s {
	case drift.SeverityRed:
		return MarkRed
	case drift.SeverityYellow:
		return MarkYellow
	case drift.SeverityOK, "":
		return MarkOK
	}
	return MarkUnknown
}

// Unknowns is what was not observed of a row, a set.
type Unknowns uint8

const (
	// UnknownWorkloadPending: the workload is not listed yet (its cluster
	// syncs): running tag, health, un-rolled and floating-running unknown.
	UnknownWorkloadPending Unknowns = 1 << iota
	// UnknownWorkloadUnreadable: this identity may not read the workload.
	UnknownWorkloadUnreadable
	// UnknownRelease: release checks are on but gave no answer for the
	// declared tag (pending, rate-limited, error, not looked up).
	UnknownRelease
	// UnknownReleaseOff: release checks are off: no-release, zero-assets and
	// stale were not checked for the declared tag.
	UnknownReleaseOff
)

var unknownNames = [...]string{"workload-pending", "workload-unreadable", "release-unchecked", "release-checks-off"}

// Names are the unknowns' JSON words, in a fixed order; nil when none.
func (u Unknowns) Names() []string {
	var out []string
	for i, n := range unknownNames {
		if u&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// Verdict is the one judgement of a row that every output reads.
type Verdict struct {
	Mark Mark
	// Unknown is what was not observed: a ? row's reasons; a yellow or red
	// row may have some too (--fail-on-unknown counts every row with any).
	Unknown Unknowns
}

// Verdict judges the row from its drift severity, health, workload
// presence, problems and unknowns. A workload that should exist and does
// not, red health or failing pods make it red; yellow drift or health and
// any other problem make it yellow; else anything unknown makes it ?.
func (v *AppView) Verdict() Verdict {
	out := Verdict{Unknown: v.unknowns()}
	mark := MarkOf(v.Drift.Severity) // a severity this program does not know is ?
	raise := func(m Mark) { mark = max(mark, m) }
	switch v.Health {
	case HealthRed:
		raise(MarkRed)
	case HealthYellow:
		raise(MarkYellow)
	}
	// Build names the kind a role makes; a missing one it expected is red.
	if v.Workload.Presence() == WorkloadMissing && v.Workload.Kind != KindNone {
		raise(MarkRed)
	}
	for i := range v.Problems {
		switch v.Problems[i].Kind {
		case ProblemNoWorkload, ProblemPodsFailing:
			raise(MarkRed)
		case ProblemUnreadable: // an unknown, counted above
		default:
			raise(MarkYellow)
		}
	}
	if out.Unknown != 0 {
		raise(MarkUnknown)
	}
	out.Mark = mark
	return out
}

func (v *AppView) unknowns() Unknowns {
	var u Unknowns
	switch v.Workload.Presence() {
	case WorkloadPending:
		u |= UnknownWorkloadPending
	case WorkloadUnreadable:
		u |= UnknownWorkloadUnreadable
	}
	switch {
	case v.WaitsOnRelease():
		u |= UnknownRelease
	case v.ReleaseFlagsUnchecked():
		u |= UnknownReleaseOff
	}
	return u
}

// RowJSON is a row's JSON shape: "verdict" (the mark) and "unknown" (what
// was not observed, absent when nothing) first, then the row's fields,
// among them the drift severity and health it is judged from, so scripts
// tell them apart. A type that adds fields to a row embeds RowJSON:
// embedding the AppView would take its MarshalJSON and drop them.
type RowJSON struct {
	Verdict Mark     `json:"verdict"`
	Unknown []string `json:"unknown,omitempty"`
	*RowFields
}

// RowFields is AppView without its methods, for RowJSON.
type RowFields AppView

// JSON is the row's RowJSON.
func (v *AppView) JSON() RowJSON {
	vd := v.Verdict()
	return RowJSON{Verdict: vd.Mark, Unknown: vd.Unknown.Names(), RowFields: (*RowFields)(v)}
}

// MarshalJSON writes the row's RowJSON.
func (v AppView) MarshalJSON() ([]byte, error) { return json.Marshal(v.JSON()) }

// HasFlag reports whether the row carries the drift flag k.
func (v *AppView) HasFlag(k drift.DriftKind) bool {
	for _, f := range v.Drift.Flags {
		if f.Kind == k {
			return true
		}
	}
	return false
}
