package model

import (
	"strconv"
	"strings"
	"time"

	"github.com/hanzoai/driftboard/drift"
)

// Checked reports whether the release facts were read: a release for the
// declared tag was found, or GitHub said there is none. Only checked facts
// feed the drift contract.
func (r Release) Checked() bool { return r.State == ReleaseFound || r.State == ReleaseNone }

// Unknown reports whether release checks are on for this row but gave no
// answer (not read yet, rate-limited, failed, or no repo to look up). Such a
// row's release flags are withheld and it is counted as waiting.
func (r Release) Unknown() bool { return !r.Checked() && r.State != ReleaseOff }

// WaitsOnRelease reports whether the row has a declared tag whose release
// was not checked: its release flags are withheld until it is.
func (v *AppView) WaitsOnRelease() bool { return v.DeclaredTag != "" && v.Release.Unknown() }

// ReleaseFlagsUnchecked reports whether no-release, zero-assets and stale
// were not decided for the row: its declared tag's release was not read
// (waiting on it, or checks off). "No drift" is then not the whole truth.
func (v *AppView) ReleaseFlagsUnchecked() bool { return v.DeclaredTag != "" && !v.Release.Checked() }

// WaitsOnWorkload reports whether the row's workload is not listed yet (its
// cluster syncs): its running tag, health and the drift flags that need
// them are unknown, not absent.
func (v *AppView) WaitsOnWorkload() bool { return v.Workload.Pending != "" }

// RunningUnknown reports whether the row's running tag was not observed:
// its workload is not listed yet, or this identity may not read it. The
// flags that need the running tag (un-rolled, floating-running) are then
// unknown, so a row without other flags is not "ok".
func (v *AppView) RunningUnknown() bool {
	return v.Workload.Pending != "" || v.Workload.Unreadable != ""
}

// UnknownNotOK reports whether the row has no drift flag, yet its running
// tag was not observed: neither ok nor drift in the design's summary
// (counted apart from byDrift). What the row shows is its Verdict.
func (v *AppView) UnknownNotOK() bool { return v.Drift.Severity.Rank() <= 0 && v.RunningUnknown() }

// ReleaseChecks is the release reader's own state, for the board's header.
type ReleaseChecks struct {
	Off          bool      `json:"off"`
	Anonymous    bool      `json:"anonymous"`
	LimitedUntil time.Time `json:"limitedUntil,omitzero"` // GitHub asked us to wait until then
	Remaining    int       `json:"remaining"`             // -1 when not known
	Limit        int       `json:"limit"`
	// RefreshSeconds is how often releases are re-read; Starved says the
	// rate budget left stretched it beyond the configured interval.
	RefreshSeconds int  `json:"refreshSeconds,omitempty"`
	Starved        bool `json:"starved"`
	// Failing is why the last try of some checks failed (the latest
	// failure's words), FailingChecks how many, and NextTry when the first
	// of them is tried again; empty while no check is failing.
	Failing       string    `json:"failing,omitempty"`
	FailingChecks int       `json:"failingChecks,omitempty"`
	NextTry       time.Time `json:"nextTry,omitzero"`
}

// releaseFlags are the flags the release facts decide; withheld while the
// release is unchecked.
func releaseFlag(k drift.DriftKind) bool {
	return k == drift.DriftStale || k == drift.DriftNoRelease || k == drift.DriftZeroAssets
}

// CompareSemver orders two strict vX.Y.Z tags: -1, 0 or 1; ok is false when
// either is not strict semver (then they are only equal or different).
func CompareSemver(a, b string) (c int, ok bool) {
	x, okA := semverParts(a)
	y, okB := semverParts(b)
	if !okA || !okB {
		return 0, false
	}
	for i := range x {
		switch {
		case x[i] < y[i]:
			return -1, true
		case x[i] > y[i]:
			return 1, true
		}
	}
	return 0, true
}

func semverParts(tag string) ([3]uint64, bool) {
	var out [3]uint64
	if !drift.IsSemverTag(tag) {
		return out, false
	}
	for i, p := range strings.SplitN(tag[1:], ".", 3) {
		n, err := strconv.ParseUint(p, 10, 64)
		if err != nil {
			return out, false
		}
		out[i] = n
	}
	return out, true
}

// StaleWords says which way a stale row points: a newer release to declare,
// or a declared tag newer than the latest release (nothing to upgrade to).
func StaleWords(declared, latest string) string {
	c, ok := CompareSemver(declared, latest)
	switch {
	case ok && c > 0:
		return "declared " + declared + " is newer than the latest release " + latest +
			": nothing to upgrade to (is " + declared + " published, or marked latest?)"
	case ok && c < 0:
		return "a newer release " + latest + " exists; " + declared + " is declared"
	}
	return "declared " + declared + " ≠ latest release " + latest
}
