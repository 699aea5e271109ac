package query

import (
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
)

// The health: names of what is not a row's Health as it is stored.
var (
	healthOffline = model.HealthWords.Of(model.HealthOffline).Name
	healthUnknown = model.HealthWords.Of(model.HealthUnknown).Name
)

// Match reports whether the row satisfies every term of the query.
func (q Query) Match(v *model.AppView) bool {
	if v == nil {
		return false
	}
	for i := range q.terms {
		if q.terms[i].match(v) == q.terms[i].neg {
			return false
		}
	}
	return true
}

// Match ranks of a row for the query's free text, best first.
const (
	RankExact  = iota // the app's name is a free-text term (ignoring case)
	RankPrefix        // the app's name starts with one
	RankOther         // any other match, or a query without free text
)

// Rank is how well the query's free text names the row, for ordering: as fzf
// puts an exact match first, "iam" ranks iam before iam-proxy, and both
// before the charts whose IDs merely contain i…a…m.
func (q Query) Rank(v *model.AppView) int {
	best := RankOther
	for i := range q.terms {
		t := &q.terms[i]
		if t.field != fieldText || t.neg || len(t.values) == 0 || t.values[0] == "" {
			continue
		}
		n := t.values[0]
		switch {
		case strings.EqualFold(v.App, n):
			return RankExact
		case len(v.App) > len(n) && strings.EqualFold(v.App[:len(n)], n):
			best = RankPrefix
		}
	}
	return best
}

func (t *term) match(v *model.AppView) bool {
	switch t.field {
	case fieldText:
		n := t.values[0] // the ID contains the app name, so the app needs no scan of its own
		return fuzzy(v.ID, n) || (v.ID == "" && fuzzy(v.App, n)) || fuzzy(v.Namespace, n) ||
			fuzzy(v.DeclaredTag, n) || fuzzy(v.RunningTag, n) || fuzzy(v.LatestTag, n)
	case fieldSev: // what the row shows, not the drift severity alone
		m := v.Verdict().Mark
		if t.minSev >= 0 {
			return int(m) >= t.minSev
		}
		return t.any(m.String(), false)
	case fieldFlag:
		for _, f := range v.Drift.Flags {
			for _, k := range t.kinds {
				if f.Kind == k {
					return true
				}
			}
		}
		return false
	case fieldApp:
		return t.any(v.App, true)
	case fieldEnv:
		return t.any(string(v.Env), false)
	case fieldNS:
		return t.any(v.Namespace, true)
	case fieldOrg:
		return t.any(v.Org, true)
	case fieldHealth:
		// An offline row shows "offline" in HEALTH: its last health is not live.
		if v.Offline && t.any(healthOffline, false) {
			return true
		}
		if v.Health == model.HealthUnknown {
			return t.any(healthUnknown, false)
		}
		return t.any(string(v.Health), false)
	case fieldCluster:
		return t.any(v.Cluster, true)
	case fieldRole:
		return t.any(v.Role, true)
	case fieldRollout:
		if v.Workload.Rollout == model.RolloutNone {
			return t.any("none", false)
		}
		return t.any(string(v.Workload.Rollout), false)
	case fieldRelease:
		// release:none is the no-release flag (checked, a declared tag, no
		// release for it), so it and flag:no-release always agree.
		for _, val := range t.values {
			if val == string(model.ReleaseNone) && v.HasFlag(drift.DriftNoRelease) {
				return true
			}
		}
		return v.Release.State != model.ReleaseNone && t.any(string(v.Release.State), false)
	case fieldGit:
		if v.Git.State == "" {
			return t.any(string(model.GitUnknown), false)
		}
		return t.any(string(v.Git.State), false)
	case fieldHas: // a closed set checked at parse time
		for _, val := range t.values {
			if val == "unknown" && v.Verdict().Unknown != 0 || val == "problems" && len(v.Problems) > 0 {
				return true
			}
		}
		return false
	}
	return false
}

// any reports whether s equals one of the values (ignoring case) or, with
// glob, matches one of the patterns.
func (t *term) any(s string, glob bool) bool {
	for _, val := range t.values {
		if strings.EqualFold(s, val) {
			return true
		}
	}
	if glob {
		for _, g := range t.globs {
			if globMatch(g, s) {
				return true
			}
		}
	}
	return false
}

// globMatch matches a lowercase pattern against s ignoring ASCII case, with a
// fast path for the common "prefix*" form.
func globMatch(pattern, s string) bool {
	meta := strings.IndexAny(pattern, "*?[\\")
	if meta == len(pattern)-1 && pattern[meta] == '*' {
		return len(s) >= meta && strings.EqualFold(s[:meta], pattern[:meta])
	}
	ok, _ := path.Match(pattern, lowerASCII(s))
	return ok
}

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s // the common case: no allocation
}

// fuzzy reports whether needle (already lowercase) is a subsequence of hay,
// ignoring case. Allocation-free; it runs per row per keystroke.
func fuzzy(hay, needle string) bool {
	if needle == "" {
		return true
	}
	n := 0
	want, wsz := utf8.DecodeRuneInString(needle)
	for i := 0; i < len(hay); {
		r, sz := rune(hay[i]), 1
		if r < utf8.RuneSelf {
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
		} else {
			r, sz = utf8.DecodeRuneInString(hay[i:])
			r = unicode.ToLower(r)
		}
		i += sz
		if r == want {
			n += wsz
			if n >= len(needle) {
				return true
			}
			want, wsz = utf8.DecodeRuneInString(needle[n:])
		}
	}
	return false
}
