package query

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/modeltest"
)

// fleet is a small board: built through Build so queries see real rows.
func fleet(t testing.TB) []*model.AppView {
	t.Helper()
	type spec struct {
		cluster, ns, name, role, repo, tag, running string
		rel                                         model.Release
		wl                                          bool
		since                                       time.Duration
	}
	relOK := func(tag string) model.Release {
		return model.Release{State: model.ReleaseFound, LatestTag: tag, URL: "https://github.com/r/" + tag, Assets: 1}
	}
	specs := []spec{
		{"prod", "hanzo", "iam", "iam", "ghcr.io/hanzoai/iam", "v1.2.3", "v1.2.3", relOK("v1.2.3"), true, 0},
		{"prod", "hanzo", "kms", "kms", "ghcr.io/hanzoai/kms", "v2.0.0", "v1.9.0", relOK("v2.0.0"), true, 2 * time.Hour},
		{"prod", "hanzo-testnet", "chat", "", "ghcr.io/hanzoai/chat", "latest", "latest", model.Release{State: model.ReleaseNone}, true, time.Hour},
		{"prod", "tenant-acme", "shop", "spa", "docker.io/acme/shop", "v1.0.0", "v1.0.0", relOK("v1.1.0"), true, 3 * time.Hour},
		{"edge", "hanzo-devnet", "db", "sql", "ghcr.io/luxfi/db", "v3.0.0", "", model.Release{State: model.ReleaseOff}, false, 0},
		{"edge", "tenant-Zoo", "Gate", "ingress", "ghcr.io/zooai/gate", "v0.1.0", "v0.1.0", model.Release{State: model.ReleaseRateLimited}, true, 30 * time.Minute},
	}
	rows := []*model.AppView{}
	for _, sp := range specs {
		a := modeltest.BaseApp()
		a.Cluster, a.Namespace, a.Name, a.Role, a.ImageRepository, a.ImageTag = sp.cluster, sp.ns, sp.name, sp.role, sp.repo, sp.tag
		var wl *model.Workload
		if sp.wl {
			wl = modeltest.BaseWorkload()
			wl.Name = sp.name
			wl.Containers = []model.Container{{Name: sp.name, Image: sp.repo + ":" + sp.running}}
			if sp.running != sp.tag {
				wl.UpdatedReplicas = 1
			}
		}
		v := model.Build(a, wl, sp.rel, modeltest.T0)
		if v.Drift.Severity != drift.SeverityOK {
			since := modeltest.T0.Add(-sp.since)
			v.DriftSince = &since
		}
		rows = append(rows, &v)
	}
	return rows
}

func names(rows []*model.AppView) []string {
	out := []string{}
	for _, r := range rows {
		out = append(out, r.App)
	}
	return out
}

func TestQuerySelect(t *testing.T) {
	t.Parallel()
	rows := fleet(t)
	tests := []struct {
		q    string
		want []string // in severity order
	}{
		{"", []string{"chat", "db", "Gate", "kms", "shop", "iam"}},
		{"   ", []string{"chat", "db", "Gate", "kms", "shop", "iam"}},
		{"iam", []string{"iam"}},
		{"IAM", []string{"iam"}},
		{"km", []string{"kms"}},
		{"hzia", []string{"iam"}}, // subsequence of "hanzo/iam/main"
		{"acme", []string{"shop"}},
		{"v1.9", []string{"kms"}}, // running tag
		{"v11", []string{"shop"}}, // latest tag v1.1.0
		{"gate", []string{"Gate"}},
		{"nothing-matches-this", []string{}},
		// sev: is the row's mark: db's StatefulSet is missing (red), Gate's
		// role makes no workload yet one exists (a problem: yellow).
		{"sev:red", []string{"chat", "db"}},
		{"sev:yellow", []string{"Gate", "kms", "shop"}},
		{"sev:ok", []string{"iam"}},
		{"sev:?", []string{}}, // db's and Gate's unknown releases are outranked by what was seen
		{"sev:unknown,red", []string{"chat", "db"}},
		{"sev:>=yellow", []string{"chat", "db", "Gate", "kms", "shop"}},
		{"sev:>=ok", []string{"chat", "db", "Gate", "kms", "shop", "iam"}},
		{"SEV:RED,yellow", []string{"chat", "db", "Gate", "kms", "shop"}},
		{"-sev:ok", []string{"chat", "db", "Gate", "kms", "shop"}},
		{"has:unknown", []string{"db", "Gate"}},
		{"flag:stale", []string{"shop"}},
		{"flag:unrolled", []string{"kms"}},
		{"flag:un-rolled", []string{"kms"}},
		{"flag:floating", []string{"chat"}},
		{"flag:floating-running", []string{"chat"}},
		{"flag:no-release", []string{"chat"}},
		{"flag:zero-assets", []string{}},
		{"flag:any", []string{"chat", "kms", "shop"}},
		{"-flag:any", []string{"db", "Gate", "iam"}},
		{"env:main", []string{"Gate", "kms", "shop", "iam"}},
		{"env:test,dev", []string{"chat", "db"}},
		{"-env:main", []string{"chat", "db"}},
		{"ns:hanzo", []string{"kms", "iam"}},
		{"ns:hanzo*", []string{"chat", "db", "kms", "iam"}},
		{"ns:tenant-*", []string{"Gate", "shop"}},
		{`ns:"tenant-*"`, []string{"Gate", "shop"}},
		{"namespace:hanzo-?estnet", []string{"chat"}},
		{"org:lux", []string{"db"}},
		{"org:hanzo", []string{"chat", "kms", "iam"}},
		{"org:ZOO", []string{"Gate"}},
		{"org:a*", []string{"shop"}},
		{"health:green", []string{"chat", "Gate", "shop", "iam"}},
		{"health:yellow", []string{"kms"}},
		{"health:unknown", []string{"db"}},
		{"health:red", []string{}},
		{"cluster:edge", []string{"db", "Gate"}},
		{"cluster:e*", []string{"db", "Gate"}},
		{"role:sql", []string{"db"}},
		// app: is the name exactly (globs allowed), never the fuzzy free text
		{"app:iam", []string{"iam"}},
		{"app:km", []string{}},
		{"app:hzia", []string{}},
		{"app:k*", []string{"kms"}},
		{"name:GATE", []string{"Gate"}},
		{"app:iam,db", []string{"db", "iam"}},
		{"-app:iam", []string{"chat", "db", "Gate", "kms", "shop"}},
		{"role:ingress,spa", []string{"Gate", "shop"}},
		{"rollout:progressing", []string{"kms"}},
		{"rollout:none", []string{"db"}},
		{"rollout:complete", []string{"chat", "Gate", "shop", "iam"}},
		{"release:off", []string{"db"}},
		{"release:rate-limited", []string{"Gate"}},
		{"has:problems", []string{"db", "Gate"}}, // StatefulSet missing; role makes no workload
		{"HAS:Problems", []string{"db", "Gate"}},
		{"-has:problems", []string{"chat", "kms", "shop", "iam"}},
		{"has:problems sev:ok", []string{}}, // a problem is never ✓
		{"has:problems,unknown", []string{"db", "Gate"}},
		{"env:main sev:red", []string{}},
		{"env:main -sev:red -iam", []string{"Gate", "kms", "shop"}},
		{"cluster:prod flag:any -flag:floating", []string{"kms", "shop"}},
		{`"hanzo/kms"`, []string{"kms"}},
		{`"a:b"`, []string{}}, // quoted: free text, not a key
		{`-"kms"`, []string{"chat", "db", "Gate", "shop", "iam"}},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			t.Parallel()
			q, err := Parse(tt.q)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.q, err)
			}
			if diff := cmp.Diff(tt.want, names(Select(rows, q, SortSeverity))); diff != "" {
				t.Errorf("Select(%q) (-want +got):\n%s", tt.q, diff)
			}
			if q.String() != tt.q {
				t.Errorf("String() = %q, want %q", q.String(), tt.q)
			}
		})
	}
}

func TestQueryErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ q, want string }{
		{"color:red", `term color:red: unknown key "color"`},
		{"sev:purple", "term sev:purple: sev must be one of ok, unknown, yellow, red"},
		{"sev:>=purple", "term sev:>=purple: severity must be"},
		{"sev:", "term sev:: sev needs a value"},
		{"sev:red,", "term sev:red,: empty value in list"},
		{"flag:drifty", `term flag:drifty: unknown drift flag "drifty"`},
		{"env:prod", "term env:prod: env must be one of main, test, dev"},
		{"health:blue", "term health:blue: health must be one of"},
		{"rollout:done", "term rollout:done: rollout must be one of"},
		{"release:maybe", "term release:maybe: release must be one of"},
		{"has:bugs", "term has:bugs: has must be one of problems, unknown"},
		{"has:", "term has:: has needs a value"},
		{"ns:[", `term ns:[: bad pattern "["`},
		{`"unclosed`, `term "unclosed: unclosed quote`},
		{`org:"a b`, `term org:"a b: unclosed quote`},
		{"-", "term -: nothing after '-'"},
		{"iam http://x", `term http://x: unknown key "http"`},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(tt.q)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("Parse(%q) error = %v, want prefix %q", tt.q, err, tt.want)
			}
		})
	}
}

func TestSortKeys(t *testing.T) {
	t.Parallel()
	rows := fleet(t)
	tests := []struct {
		by   SortKey
		name string
		want []string
	}{
		{SortSeverity, "severity", []string{"chat", "db", "Gate", "kms", "shop", "iam"}},
		{SortName, "name", []string{"Gate", "chat", "db", "iam", "kms", "shop"}},
		{SortEnv, "env", []string{"Gate", "iam", "kms", "shop", "chat", "db"}},
		{SortNamespace, "namespace", []string{"iam", "kms", "db", "chat", "Gate", "shop"}},
		{SortDriftAge, "drift-age", []string{"shop", "kms", "chat", "db", "Gate", "iam"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if tt.by.String() != tt.name {
				t.Errorf("String() = %q, want %q", tt.by.String(), tt.name)
			}
			if k, err := ParseSortKey(tt.name); err != nil || k != tt.by {
				t.Errorf("ParseSortKey(%q) = %v, %v", tt.name, k, err)
			}
			before := names(rows)
			got := Select(rows, Query{}, tt.by)
			if diff := cmp.Diff(tt.want, names(got)); diff != "" {
				t.Errorf("sort %s (-want +got):\n%s", tt.name, diff)
			}
			if diff := cmp.Diff(before, names(rows)); diff != "" {
				t.Errorf("Select reordered its input (-before +after):\n%s", diff)
			}
		})
	}
	if _, err := ParseSortKey("size"); err == nil {
		t.Error("ParseSortKey(size) accepted")
	}
	if SortKey(9).String() != "SortKey(9)" || SortDriftAge.Next() != SortSeverity {
		t.Error("String/Next out of range")
	}
}

func TestMatchNil(t *testing.T) {
	t.Parallel()
	if (Query{}).Match(nil) {
		t.Error("nil row matched")
	}
}

func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"iam sev:red", `-env:main,test "org:a b" ns:tenant-*`, `"`, "-", "flag:any -flag:floating", "sev:>=yellow", "ns:[", "a:b:c", "é:ü"} {
		f.Add(s)
	}
	rows := fleet(f)
	f.Fuzz(func(t *testing.T, s string) {
		q, err := Parse(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "term ") {
				t.Fatalf("error does not name the term: %v", err)
			}
			return
		}
		// Select must return exactly the matching rows (none dropped, none
		// added, each once) ranked by the free text (exact name, prefix,
		// the rest), each rank in severity order.
		got := Select(rows, q, SortSeverity)
		want := map[model.Key]bool{}
		for _, r := range rows {
			if q.Match(r) {
				want[r.Key()] = true
			}
		}
		seen := map[model.Key]bool{}
		for i, r := range got {
			if !want[r.Key()] || seen[r.Key()] {
				t.Fatalf("Select(%q) returned %s, which does not match or is repeated", s, r.Key())
			}
			seen[r.Key()] = true
			if i == 0 {
				continue
			}
			prev, cur := q.Rank(got[i-1]), q.Rank(r)
			switch {
			case prev > cur:
				t.Fatalf("Select(%q) not in rank order at %d", s, i)
			case prev == cur && got[i-1].Verdict().Mark < r.Verdict().Mark:
				t.Fatalf("Select(%q) not in severity order at %d", s, i)
			}
		}
		if len(seen) != len(want) {
			t.Fatalf("Select(%q) returned %d rows, %d match", s, len(seen), len(want))
		}
	})
}
