// Package query is the board's filter language, shared by the board and the
// commands: parse, match, the sort orders, Select, and the View that keeps
// a query's rows in order over the store's snapshots.
package query

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
)

// Query is a parsed board filter: terms that must all match.
type Query struct {
	terms []term
	text  string
}

// String returns the text the query was parsed from.
func (q Query) String() string { return q.text }

// NamesEnv reports whether a positive env term of the query lists e: the
// query names that env (env:main, env:test,main), so a set it selects may
// include it without driftboard assuming so.
func (q Query) NamesEnv(e model.Env) bool {
	for _, t := range q.terms {
		if t.field == fieldEnv && !t.neg && slices.Contains(t.values, string(e)) {
			return true
		}
	}
	return false
}

// Empty reports whether the query matches every row.

type term struct {
	key    string            // "" is free text
	field  field             // key resolved once, so Match does not compare strings
	neg    bool              // leading '-'
	values []string          // lowercased; any may match (comma = OR)
	minSev int               // sev:>=x, a Mark; -1 when unused
	kinds  []drift.DriftKind // flag: values resolved at parse time
	globs  []string          // values with glob metacharacters (app, ns, org, cluster, role)
}

// queryKeys lists the keys and, for closed sets, their allowed values.
var queryKeys = map[string][]string{
	"sev":     model.MarkWords.Names(), // the row's Verdict mark
	"app":     nil,                     // glob: the App's name exactly (free text is fuzzy)
	"flag":    nil,                     // checked by flagKinds
	"env":     {"main", "test", "dev"},
	"ns":      nil, // glob
	"org":     nil, // glob
	"health":  model.HealthWords.Names(),
	"cluster": nil, // glob
	"role":    nil, // glob
	"rollout": {"complete", "progressing", "stuck", "paused", "none"},
	"release": {"off", "pending", "found", "none", "rate-limited", "error", "not-looked-up"},
	"has":     {"problems", "unknown"},
	"git":     model.GitStateWords.Names(),
}

// KeyValues are the values a closed query key takes (sev, health, rollout,
// release, has, git, env), in the order help lists them; nil for a key
// that takes any text or glob.
func KeyValues(key string) []string { return slices.Clone(queryKeys[key]) }

// field is a query key resolved to an integer for the hot Match loop.
type field int

const (
	fieldText field = iota
	fieldSev
	fieldFlag
	fieldEnv
	fieldNS
	fieldOrg
	fieldHealth
	fieldCluster
	fieldRole
	fieldRollout
	fieldRelease
	fieldHas
	fieldGit
	fieldApp
)

var fieldOf = map[string]field{
	"sev": fieldSev, "flag": fieldFlag, "env": fieldEnv, "ns": fieldNS, "org": fieldOrg, "health": fieldHealth,
	"cluster": fieldCluster, "role": fieldRole, "rollout": fieldRollout, "release": fieldRelease,
	"has": fieldHas, "git": fieldGit, "app": fieldApp,
}

var keyAliases = map[string]string{"severity": "sev", "namespace": "ns", "drift": "flag", "name": "app"}

// printedAs reads back, for the keys whose values the outputs print, any
// word they print for a value (model's word tables): sev:✖, health:?,
// git:out are sev:red, health:unknown, git:out-of-sync.
var printedAs = map[string]func(string) (string, bool){
	"sev":    nameOf(model.MarkWords),
	"health": nameOf(model.HealthWords),
	"git":    nameOf(model.GitStateWords),
}

func nameOf[T comparable](ws model.Words[T]) func(string) (string, bool) {
	return func(s string) (string, bool) {
		w, ok := ws.Lookup(s)
		return w.Name, ok
	}
}

// flagGroups are flag: values that stand for several drift kinds; every
// single kind is read by its words (model.FlagWords: the name, the FLAGS
// column's two letters).
var flagGroups = map[string][]drift.DriftKind{
	"floating": {drift.DriftFloatingDeclared, drift.DriftFloatingRunning},
	"any":      drift.Kinds,
}

// flagKinds reads a flag: value.
func flagKinds(v string) ([]drift.DriftKind, bool) {
	if kinds, ok := flagGroups[v]; ok {
		return kinds, true
	}
	w, ok := model.FlagWords.Lookup(v)
	return []drift.DriftKind{w.Value}, ok
}

// Parse parses the board's one-line filter, e.g.
//
//	iam sev:red,yellow -env:dev ns:tenant-* flag:unrolled "org:lux fi"
//
// Free text matches app, id, namespace and tags fuzzily (app:NAME is the
// exact name, for a set restart that must not pick up look-alikes); key:value terms
// match fields; '-' negates; terms AND; commas OR within a key. Unknown keys
// and bad values are errors naming the term.
func Parse(s string) (Query, error) {
	tokens, err := splitQuery(s)
	if err != nil {
		return Query{}, err
	}
	q := Query{text: s}
	for _, tok := range tokens {
		t, err := parseTerm(tok)
		if err != nil {
			return Query{}, err
		}
		q.terms = append(q.terms, t)
	}
	return q, nil
}

type token struct {
	raw    string // as typed, for error messages
	neg    bool
	key    string
	value  string
	hasKey bool
}

// splitQuery splits on spaces outside double quotes; quotes may wrap a whole
// term or a value ("a b", key:"a b").
func splitQuery(s string) ([]token, error) {
	var out []token
	i := 0
	for i < len(s) {
		if s[i] == ' ' || s[i] == '\t' {
			i++
			continue
		}
		start := i
		var b strings.Builder
		quoted, sawQuote := false, false
		colon := -1
		for ; i < len(s); i++ {
			c := s[i]
			if c == '"' {
				quoted, sawQuote = !quoted, true
				continue
			}
			if !quoted && (c == ' ' || c == '\t') {
				break
			}
			if c == ':' && !quoted && colon < 0 && !sawQuote {
				colon = b.Len()
			}
			b.WriteByte(c)
		}
		raw := s[start:i]
		if quoted {
			return nil, fmt.Errorf("term %s: unclosed quote", raw)
		}
		t := token{raw: raw, value: b.String()}
		if strings.HasPrefix(raw, "-") {
			t.neg = true
			t.value = t.value[1:]
			colon--
		}
		if colon >= 0 {
			t.key, t.value, t.hasKey = strings.ToLower(t.value[:colon]), t.value[colon+1:], true
		}
		if t.value == "" && !t.hasKey && !sawQuote {
			return nil, fmt.Errorf("term %s: nothing after '-'", raw)
		}
		out = append(out, t)
	}
	return out, nil
}

func parseTerm(tok token) (term, error) {
	t := term{neg: tok.neg, minSev: -1}
	if !tok.hasKey {
		t.values = []string{strings.ToLower(tok.value)}
		return t, nil
	}
	key := tok.key
	if k, ok := keyAliases[key]; ok {
		key = k
	}
	allowed, known := queryKeys[key]
	if !known {
		return t, fmt.Errorf("term %s: unknown key %q (keys: app, sev, flag, env, ns, org, health, cluster, role, rollout, release, has, git)", tok.raw, tok.key)
	}
	t.key, t.field = key, fieldOf[key]
	if tok.value == "" {
		return t, fmt.Errorf("term %s: %s needs a value", tok.raw, key)
	}
	if key == "sev" && strings.HasPrefix(tok.value, ">=") {
		m, ok := model.ParseMark(tok.value[2:])
		if !ok {
			return t, fmt.Errorf("term %s: severity must be ok, unknown (?), yellow or red", tok.raw)
		}
		t.minSev = int(m)
		return t, nil
	}
	for v := range strings.SplitSeq(tok.value, ",") {
		v = strings.ToLower(strings.TrimSpace(v))
		if v == "" {
			return t, fmt.Errorf("term %s: empty value in list", tok.raw)
		}
		if read, ok := printedAs[key]; ok {
			if name, ok := read(v); ok {
				v = name
			}
		}
		switch {
		case key == "flag":
			kinds, ok := flagKinds(v)
			if !ok {
				return t, fmt.Errorf("term %s: unknown drift flag %q (stale, unrolled, floating, floating-declared, floating-running, no-release, zero-assets, any, or the short FD, FR, NR, ZA, ST, UR)", tok.raw, v)
			}
			t.kinds = append(t.kinds, kinds...)
		case allowed != nil:
			if !slices.Contains(allowed, v) {
				return t, fmt.Errorf("term %s: %s must be one of %s", tok.raw, key, strings.Join(allowed, ", "))
			}
		default:
			if _, err := path.Match(v, ""); err != nil {
				return t, fmt.Errorf("term %s: bad pattern %q", tok.raw, v)
			}
			if strings.ContainsAny(v, "*?[\\") {
				t.globs = append(t.globs, v)
			}
		}
		t.values = append(t.values, v)
	}
	return t, nil
}
