package model

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNewPrincipal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		claims Claims
		want   Principal
		role   string
	}{
		{"super admin", Claims{Subject: "u1", PreferredUsername: "zach", Orgs: []OrgRole{{"hanzo", "member"}, {"admin", "member"}}},
			Principal{Subject: "u1", User: "zach", HomeOrg: "hanzo", Orgs: []OrgRole{{"hanzo", "member"}, {"admin", "member"}}, SuperAdmin: true}, "SuperAdmin"},
		{"owner", Claims{Subject: "u2", Name: "Ann", Orgs: []OrgRole{{"acme", "owner"}}},
			Principal{Subject: "u2", User: "Ann", HomeOrg: "acme", Orgs: []OrgRole{{"acme", "owner"}}, OrgAdmin: true}, "OrgAdmin of acme"},
		{"admin", Claims{Subject: "u3", Email: "b@acme.io", Orgs: []OrgRole{{"acme", "admin"}}},
			Principal{Subject: "u3", User: "b@acme.io", Email: "b@acme.io", HomeOrg: "acme", Orgs: []OrgRole{{"acme", "admin"}}, OrgAdmin: true}, "OrgAdmin of acme"},
		{"isAdmin bit with home org", Claims{Subject: "u4", IsAdmin: true, Orgs: []OrgRole{{"acme", "member"}}},
			Principal{Subject: "u4", User: "u4", HomeOrg: "acme", Orgs: []OrgRole{{"acme", "member"}}, OrgAdmin: true}, "OrgAdmin of acme"},
		{"isAdmin bit without orgs", Claims{Subject: "u5", IsAdmin: true, Owner: "acme"},
			Principal{Subject: "u5", User: "u5"}, "no org"},
		{"admin elsewhere is not OrgAdmin of home", Claims{Subject: "u6", Orgs: []OrgRole{{"acme", "member"}, {"beta", "owner"}}},
			Principal{Subject: "u6", User: "u6", HomeOrg: "acme", Orgs: []OrgRole{{"acme", "member"}, {"beta", "owner"}}}, "member of acme"},
		{"owner claim is ignored", Claims{Subject: "u7", Owner: "admin", Orgs: []OrgRole{{"acme", "member"}}},
			Principal{Subject: "u7", User: "u7", HomeOrg: "acme", Orgs: []OrgRole{{"acme", "member"}}}, "member of acme"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := NewPrincipal(tt.claims)
			if diff := cmp.Diff(tt.want, p); diff != "" {
				t.Errorf("NewPrincipal (-want +got):\n%s", diff)
			}
			if got := p.RoleName(); got != tt.role {
				t.Errorf("RoleName = %q, want %q", got, tt.role)
			}
		})
	}
}

func TestClaimsJSON(t *testing.T) {
	t.Parallel()
	raw := `{"sub":"s","email":"e","name":"n","preferred_username":"p","owner":"o","isAdmin":true,"orgs":[{"org":"acme","role":"owner"}]}`
	var c Claims
	if err := json.Unmarshal([]byte(raw), &c); err != nil {
		t.Fatal(err)
	}
	want := Claims{Subject: "s", Email: "e", Name: "n", PreferredUsername: "p", Owner: "o", IsAdmin: true, Orgs: []OrgRole{{"acme", "owner"}}}
	if diff := cmp.Diff(want, c); diff != "" {
		t.Errorf("claims (-want +got):\n%s", diff)
	}
}

func TestAuthorize(t *testing.T) {
	t.Parallel()
	super := NewPrincipal(Claims{PreferredUsername: "zach", Orgs: []OrgRole{{"hanzo", "owner"}, {"admin", "member"}}})
	acme := NewPrincipal(Claims{PreferredUsername: "ann", Orgs: []OrgRole{{"acme", "owner"}, {"beta", "admin"}}})
	hanzo := NewPrincipal(Claims{PreferredUsername: "hal", Orgs: []OrgRole{{"hanzo", "admin"}}})
	upper := NewPrincipal(Claims{PreferredUsername: "cap", Orgs: []OrgRole{{"Acme", "owner"}}})
	member := NewPrincipal(Claims{PreferredUsername: "bob", Orgs: []OrgRole{{"acme", "member"}}})
	orphan := NewPrincipal(Claims{Subject: "s-9"})
	anon := NewPrincipal(Claims{IsAdmin: true})
	tests := []struct {
		name string
		p    *Principal
		ns   string
		want Decision
	}{
		{"nil", nil, "hanzo", Decision{Reason: "not logged in"}},
		{"super anywhere", &super, "tenant-acme", Decision{Allowed: true, Reason: "zach is a SuperAdmin (member of org admin)."}},
		{"super in no-tenant namespace", &super, "kube-system", Decision{Allowed: true, Reason: "zach is a SuperAdmin (member of org admin)."}},
		{"org admin own tenant", &acme, "tenant-acme", Decision{Allowed: true, Reason: "ann is OrgAdmin of acme, which owns namespace tenant-acme."}},
		{"org admin other tenant", &acme, "tenant-globex", Decision{Reason: "ann is OrgAdmin of acme, but namespace tenant-globex belongs to globex."}},
		{"admin of a second org does not widen scope", &acme, "tenant-beta", Decision{Reason: "ann is OrgAdmin of acme, but namespace tenant-beta belongs to beta."}},
		{"org admin platform namespace", &acme, "hanzo", Decision{Reason: "ann is OrgAdmin of acme, but namespace hanzo belongs to hanzo."}},
		{"org admin of hanzo on platform", &hanzo, "hanzo-devnet", Decision{Allowed: true, Reason: "hal is OrgAdmin of hanzo, which owns namespace hanzo-devnet."}},
		{"no tenant", &hanzo, "default", Decision{Reason: `hal is OrgAdmin of hanzo, but namespace "default" belongs to no org; only a SuperAdmin may act there.`}},
		{"org case differs", &upper, "tenant-acme", Decision{Allowed: true, Reason: "cap is OrgAdmin of Acme, which owns namespace tenant-acme."}},
		{"prefix is not a tenant", &acme, "tenant-acme-evil", Decision{Reason: "ann is OrgAdmin of acme, but namespace tenant-acme-evil belongs to acme-evil."}},
		{"member", &member, "tenant-acme", Decision{Reason: "bob is only a member of acme; only an owner or admin of the org may use the board."}},
		{"no orgs", &orphan, "tenant-acme", Decision{Reason: "s-9 belongs to no org; only an org owner or admin may use the board."}},
		{"no name at all", &anon, "hanzo", Decision{Reason: "This identity belongs to no org; only an org owner or admin may use the board."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, tt.p.Authorize(tt.ns)); diff != "" {
				t.Errorf("Authorize(%q) (-want +got):\n%s", tt.ns, diff)
			}
		})
	}
}

func TestScoped(t *testing.T) {
	t.Parallel()
	var nilP *Principal
	super := NewPrincipal(Claims{Orgs: []OrgRole{{"admin", "member"}}})
	acme := NewPrincipal(Claims{Orgs: []OrgRole{{"acme", "admin"}}})
	member := NewPrincipal(Claims{Orgs: []OrgRole{{"acme", "member"}}})
	type res struct {
		All bool
		Org string
	}
	got := []res{}
	for _, p := range []*Principal{nilP, &super, &acme, &member} {
		all, org := p.Scoped()
		got = append(got, res{all, org})
	}
	if diff := cmp.Diff([]res{{false, ""}, {true, ""}, {false, "acme"}, {false, ""}}, got); diff != "" {
		t.Errorf("Scoped (-want +got):\n%s", diff)
	}
	if nilP.RoleName() != "not logged in" {
		t.Errorf("nil RoleName = %q", nilP.RoleName())
	}
}
