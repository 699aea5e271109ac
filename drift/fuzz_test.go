package drift

import (
	"slices"
	"testing"
)

func FuzzComputeDrift(f *testing.F) {
	f.Add("v1.2.3", "v1.2.3", "v1.2.3", url, 1)
	f.Add("latest", "edge", "v2.0.0", "", 0)
	f.Add("v1.0.0", "", "v1.1.0", url, 0)
	f.Add("", "sha-1", "", "", -1)
	f.Add("v01.2.3", "v1..3", "v١.٢.٣", "x", 7)
	f.Fuzz(func(t *testing.T, declared, running, latest, relURL string, assets int) {
		o := Observed{DeclaredTag: declared, RunningTag: running, LatestTag: latest, ReleaseURL: relURL, ReleaseAssets: assets}
		d := ComputeDrift(o)
		if d.Flags == nil {
			t.Fatal("Flags is nil")
		}
		maxSev := SeverityOK
		last := -1
		for _, fl := range d.Flags {
			if fl.Severity.Rank() > maxSev.Rank() {
				maxSev = fl.Severity
			}
			pos := slices.Index(Kinds, fl.Kind)
			if pos <= last {
				t.Fatalf("flag %s out of contract order or repeated: %v", fl.Kind, d.Flags)
			}
			last = pos
			if fl.Message == "" {
				t.Fatalf("flag %s has no message", fl.Kind)
			}
			if want := map[bool]DriftSeverity{true: SeverityYellow, false: SeverityRed}[fl.Kind == DriftStale || fl.Kind == DriftUnrolled]; fl.Severity != want {
				t.Fatalf("flag %s severity %s, want %s", fl.Kind, fl.Severity, want)
			}
			if !precondition(fl.Kind, o) {
				t.Fatalf("flag %s without its precondition: %+v", fl.Kind, o)
			}
		}
		if d.Severity != maxSev {
			t.Fatalf("severity %s, max of flags %s", d.Severity, maxSev)
		}
		// and the converse: every precondition yields its flag
		for _, k := range Kinds {
			has := slices.ContainsFunc(d.Flags, func(fl DriftFlag) bool { return fl.Kind == k })
			if precondition(k, o) != has {
				t.Fatalf("kind %s: precondition %v, flagged %v, for %+v", k, !has, has, o)
			}
		}
	})
}

// precondition restates each rule independently of the implementation.
func precondition(k DriftKind, o Observed) bool {
	semver := func(s string) bool { // ^v\d+\.\d+\.\d+$ with ASCII digits, written differently
		if !hasPrefix(s, "v") {
			return false
		}
		parts := splitDots(s[1:])
		if len(parts) != 3 {
			return false
		}
		for _, p := range parts {
			if p == "" {
				return false
			}
			for _, c := range []byte(p) {
				if c < '0' || c > '9' {
					return false
				}
			}
		}
		return true
	}
	switch k {
	case DriftFloatingDeclared:
		return o.DeclaredTag != "" && !semver(o.DeclaredTag)
	case DriftFloatingRunning:
		return o.RunningTag != "" && !semver(o.RunningTag)
	case DriftStale:
		return semver(o.DeclaredTag) && semver(o.LatestTag) && o.DeclaredTag != o.LatestTag
	case DriftUnrolled:
		return o.DeclaredTag != "" && o.RunningTag != "" && o.DeclaredTag != o.RunningTag
	case DriftNoRelease:
		return o.DeclaredTag != "" && o.ReleaseURL == ""
	case DriftZeroAssets:
		return o.ReleaseURL != "" && o.ReleaseAssets == 0
	}
	return false
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

func splitDots(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
