// Package drift is the drift contract of the Hanzo PaaS design document, pure:
// it derives the drift verdict for one observed service row and performs no IO.
// It is a faithful port of the platform's apps-drift.ts, so the board and the
// platform can never disagree about what "drift" means.
package drift

import "fmt"

// DriftKind enumerates the kinds of drift. Each is independent: one row can
// carry several at once.
type DriftKind string

const (
	// DriftStale: declared ≠ latest; a newer release exists but is not declared. (yellow)
	DriftStale DriftKind = "stale"
	// DriftUnrolled: running ≠ declared; the cluster has not rolled to the declared tag. (yellow)
	DriftUnrolled DriftKind = "un-rolled"
	// DriftFloatingDeclared: the declared tag is not strict semver; policy, though the operator runs any tag. (red)
	DriftFloatingDeclared DriftKind = "floating-declared"
	// DriftFloatingRunning: the running tag is not strict semver; a policy violation on the cluster. (red)
	DriftFloatingRunning DriftKind = "floating-running"
	// DriftNoRelease: no GitHub Release was found for the declared tag. (red)
	DriftNoRelease DriftKind = "no-release"
	// DriftZeroAssets: the GitHub Release exists but shipped no assets. (red)
	DriftZeroAssets DriftKind = "zero-assets"
)

// Kinds lists every kind in the order ComputeDriftFlags emits them.
var Kinds = []DriftKind{
	DriftFloatingDeclared, DriftFloatingRunning, DriftStale,
	DriftUnrolled, DriftNoRelease, DriftZeroAssets,
}

// DriftSeverity is the aggregate severity: "ok" means no flags, otherwise the
// maximum over the flags.
type DriftSeverity string

const (
	SeverityOK     DriftSeverity = "ok"
	SeverityYellow DriftSeverity = "yellow"
	SeverityRed    DriftSeverity = "red"
)

// Rank orders severities: ok < yellow < red. Unknown values rank below ok.
func (s DriftSeverity) Rank() int {
	switch s {
	case SeverityOK:
		return 0
	case SeverityYellow:
		return 1
	case SeverityRed:
		return 2
	}
	return -1
}

// DriftFlag is a single finding: its kind, severity and a human-readable reason.
type DriftFlag struct {
	Kind     DriftKind     `json:"kind"`
	Severity DriftSeverity `json:"severity"`
	Message  string        `json:"message"`
}

// Drift is the verdict for one row: the ordered flags plus the rolled-up severity.
type Drift struct {
	Severity DriftSeverity `json:"severity"`
	Flags    []DriftFlag   `json:"flags"`
}

// Observed is the minimal set of already-observed tag fields the derivation reads.
type Observed struct {
	DeclaredTag   string // what should run: spec.image.tag on the App CR
	RunningTag    string // what actually runs: observed from the workload
	LatestTag     string // newest released tag
	ReleaseURL    string // release URL for DeclaredTag ("" means no-release)
	ReleaseAssets int    // asset count on that release (0 means zero-assets)
}

// IsSemverTag reports whether tag is a strict vX.Y.Z tag (^v\d+\.\d+\.\d+$).
// Hand-rolled rather than a regexp: it runs for every row on every event.
func IsSemverTag(tag string) bool {
	if len(tag) < 6 || tag[0] != 'v' {
		return false
	}
	parts, digits := 0, 0
	for i := 1; i < len(tag); i++ {
		c := tag[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && digits > 0 && parts < 2:
			parts++
			digits = 0
		default:
			return false
		}
	}
	return parts == 2 && digits > 0
}

// ComputeDriftFlags derives the drift flags for one observed row, in contract
// order: floating-declared, floating-running, stale, un-rolled, no-release,
// zero-assets. Tags are compared verbatim; no ordering beyond equality.
func ComputeDriftFlags(o Observed) []DriftFlag {
	var flags []DriftFlag
	add := func(k DriftKind, s DriftSeverity, msg string) {
		flags = append(flags, DriftFlag{Kind: k, Severity: s, Message: msg})
	}
	declaredFloating := o.DeclaredTag != "" && !IsSemverTag(o.DeclaredTag)
	if declaredFloating {
		add(DriftFloatingDeclared, SeverityRed,
			fmt.Sprintf("Declared tag \"%s\" is not a vX.Y.Z release tag: the operator runs it, but what runs can change under the same name.", o.DeclaredTag))
	}
	if o.RunningTag != "" && !IsSemverTag(o.RunningTag) {
		add(DriftFloatingRunning, SeverityRed,
			fmt.Sprintf("The cluster runs floating tag \"%s\", not a vX.Y.Z release tag.", o.RunningTag))
	}
	if !declaredFloating && IsSemverTag(o.DeclaredTag) && IsSemverTag(o.LatestTag) && o.DeclaredTag != o.LatestTag {
		add(DriftStale, SeverityYellow,
			fmt.Sprintf("Release %s exists but %s is declared.", o.LatestTag, o.DeclaredTag))
	}
	if o.DeclaredTag != "" && o.RunningTag != "" && o.DeclaredTag != o.RunningTag {
		add(DriftUnrolled, SeverityYellow,
			fmt.Sprintf("Declared %s has not rolled out; the cluster still runs %s.", o.DeclaredTag, o.RunningTag))
	}
	if o.DeclaredTag != "" && o.ReleaseURL == "" {
		add(DriftNoRelease, SeverityRed,
			fmt.Sprintf("No GitHub release found for declared tag %s.", o.DeclaredTag))
	}
	if o.ReleaseURL != "" && o.ReleaseAssets == 0 {
		add(DriftZeroAssets, SeverityRed,
			fmt.Sprintf("The release for %s has no assets.", orUnknown(o.DeclaredTag)))
	}
	return flags
}

func orUnknown(tag string) string {
	if tag == "" {
		return "the declared tag"
	}
	return tag
}

// DriftSeverityOf rolls flags up to one severity: red > yellow > ok.
func DriftSeverityOf(flags []DriftFlag) DriftSeverity {
	sev := SeverityOK
	for _, f := range flags {
		if f.Severity.Rank() > sev.Rank() {
			sev = f.Severity
		}
	}
	return sev
}

// ComputeDrift is the full verdict for one row. Flags is never nil, so JSON
// encodes [] rather than null.
func ComputeDrift(o Observed) Drift {
	flags := ComputeDriftFlags(o)
	if flags == nil {
		flags = []DriftFlag{}
	}
	return Drift{Severity: DriftSeverityOf(flags), Flags: flags}
}
