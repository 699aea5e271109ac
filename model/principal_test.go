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
		{"super admin: home org is admin", Claims{Subject: "u1", PreferredUsername: "zach", Owner: "admin", Orgs: []OrgRole{{"admin", "member"}}},
			Principal{Subject: "u1", User: "zach", HomeOrg: "admin", Orgs: []OrgRole{{"admin", "member"}}, SuperAdmin: true}, "SuperAdmin"},
		{"membership in admin from another home org is not SuperAdmin", Claims{Subject: "u1", PreferredUsername: "zach", Owner: "hanzo", Orgs: []OrgRole{{"hanzo", "member"}, {"admin", "owner"}}},
			Principal{Subject: "u1", User: "zach", HomeOrg: "hanzo", Orgs: []OrgRole{{"hanzo", "member"}, {"admin", "owner"}}}, "member of hanzo"},
		{"owner", Claims{Subject: "u2", Name: "Ann", Owner: "acme", Orgs: []OrgRole{{"acme", "owner"}}},
			Principal{Subject: "u2", User: "Ann", HomeOrg: "acme", Orgs: []OrgRole{{"acme", "owner"}}, OrgAdmin: true}, "OrgAdmin of acme"},
		{"admin, home org from orgs[0] without owner", Claims{Subject: "u3", Email: "b@acme.io", Orgs: []OrgRole{{"acme", "admin"}}},
			Principal{Subject: "u3", User: "b@acme.io", Email: "b@acme.io", HomeOrg: "acme", Orgs: []OrgRole{{"acme", "admin"}}, OrgAdmin: true}, "OrgAdmin of acme"},
		{"isAdmin bit with home org", Claims{Subject: "u4", IsAdmin: true, Owner: "acme", Orgs: []OrgRole{{"acme", "member"}}},
			Principal{Subject: "u4", User: "u4", HomeOrg: "acme", Orgs: []OrgRole{{"acme", "member"}}, OrgAdmin: true}, "OrgAdmin of acme"},
		{"isAdmin bit without any org", Claims{Subject: "u5", IsAdmin: true},
			Principal{Subject: "u5", User: "u5"}, "no org"},
		{"admin elsewhere is not OrgAdmin of home", Claims{Subject: "u6", Owner: "acme", Orgs: []OrgRole{{"acme", "member"}, {"beta", "owner"}}},
			Principal{Subject: "u6", User: "u6", HomeOrg: "acme", Orgs: []OrgRole{{"acme", "member"}, {"beta", "owner"}}}, "member of acme"},
		{"owner claim names the home org", Claims{Subject: "u7", Owner: "beta", Orgs: []OrgRole{{"acme", "owner"}, {"beta", "admin"}}},
			Principal{Subject: "u7", User: "u7", HomeOrg: "beta", Orgs: []OrgRole{{"acme", "owner"}, {"beta", "admin"}}, OrgAdmin: true}, "OrgAdmin of beta"},
		{"non-ASCII home org gets no standing", Claims{Subject: "u8", Owner: "ſtripe", Orgs: []OrgRole{{"ſtripe", "owner"}}},
			Principal{Subject: "u8", User: "u8", HomeOrg: "ſtripe", Orgs: []OrgRole{{"ſtripe", "owner"}}}, "member of ſtripe"},
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
	super := NewPrincipal(Claims{PreferredUsername: "zach", Owner: "admin", Orgs: []OrgRole{{"admin", "member"}}})
	adminMember := NewPrincipal(Claims{PreferredUsername: "mo", Owner: "hanzo", Orgs: []OrgRole{{"hanzo", "member"}, {"admin", "admin"}}})
	acme := NewPrincipal(Claims{PreferredUsername: "ann", Owner: "acme", Orgs: []OrgRole{{"acme", "owner"}, {"beta", "admin"}}})
	hanzo := NewPrincipal(Claims{PreferredUsername: "hal", Owner: "hanzo", Orgs: []OrgRole{{"hanzo", "admin"}}})
	upper := NewPrincipal(Claims{PreferredUsername: "cap", Owner: "Acme", Orgs: []OrgRole{{"Acme", "owner"}}})
	stripe := NewPrincipal(Claims{PreferredUsername: "sam", Owner: "stripe", Orgs: []OrgRole{{"stripe", "owner"}}})
	longS := NewPrincipal(Claims{PreferredUsername: "eve", Owner: "ſtripe", Orgs: []OrgRole{{"ſtripe", "owner"}}, IsAdmin: true})
	member := NewPrincipal(Claims{PreferredUsername: "bob", Owner: "acme", Orgs: []OrgRole{{"acme", "member"}}})
	orphan := NewPrincipal(Claims{Subject: "s-9"})
	anon := NewPrincipal(Claims{IsAdmin: true})
	hashed := map[string]string{NamespaceOrgLabel: "Acme Corp."} // a name that is not a DNS label
	labelled := map[string]string{NamespaceOrgLabel: "acme"}
	tests := []struct {
		name   string
		p      *Principal
		ns     string
		labels map[string]string
		want   Decision
	}{
		{"nil", nil, "hanzo", nil, Decision{Reason: "not logged in"}},
		{"super anywhere", &super, "tenant-acme", nil, Decision{Allowed: true, Reason: "zach is a SuperAdmin (home org admin)."}},
		{"super in no-tenant namespace", &super, "kube-system", nil, Decision{Allowed: true, Reason: "zach is a SuperAdmin (home org admin)."}},
		{"admin membership is not SuperAdmin", &adminMember, "tenant-acme", nil, Decision{Reason: "mo is only a member of hanzo; only an owner or admin of the org may use the board."}},
		{"org admin own tenant", &acme, "tenant-acme", nil, Decision{Allowed: true, Reason: "ann is OrgAdmin of acme, which owns namespace tenant-acme."}},
		{"org admin other tenant", &acme, "tenant-globex", nil, Decision{Reason: "ann is OrgAdmin of acme, but namespace tenant-globex belongs to globex."}},
		{"admin of a second org does not widen scope", &acme, "tenant-beta", nil, Decision{Reason: "ann is OrgAdmin of acme, but namespace tenant-beta belongs to beta."}},
		{"org admin platform namespace", &acme, "hanzo", nil, Decision{Reason: "ann is OrgAdmin of acme, but namespace hanzo belongs to hanzo."}},
		{"org admin of hanzo on platform", &hanzo, "hanzo-devnet", nil, Decision{Allowed: true, Reason: "hal is OrgAdmin of hanzo, which owns namespace hanzo-devnet."}},
		{"no tenant", &hanzo, "default", nil, Decision{Reason: `hal is OrgAdmin of hanzo, but namespace "default" belongs to no org; only a SuperAdmin may act there.`}},
		{"org case differs (ASCII)", &upper, "tenant-acme", nil, Decision{Allowed: true, Reason: "cap is OrgAdmin of Acme, which owns namespace tenant-acme."}},
		{"prefix is not a tenant", &acme, "tenant-acme-evil", nil, Decision{Reason: "ann is OrgAdmin of acme, but namespace tenant-acme-evil belongs to acme-evil."}},
		{"long s does not fold to s", &longS, "tenant-stripe", nil, Decision{Reason: `eve's org name "ſtripe" is not ASCII; IAM org names are, so it is refused.`}},
		{"a non-ASCII label never matches", &stripe, "tenant-x", map[string]string{NamespaceOrgLabel: "ſtripe"}, Decision{Reason: "sam is OrgAdmin of stripe, but namespace tenant-x belongs to ſtripe."}},
		{"stripe itself", &stripe, "tenant-stripe", nil, Decision{Allowed: true, Reason: "sam is OrgAdmin of stripe, which owns namespace tenant-stripe."}},
		{"label names the org of a hashed namespace", &acme, "tenant-acme-corp-3f2a", labelled, Decision{Allowed: true, Reason: "ann is OrgAdmin of acme, which owns namespace tenant-acme-corp-3f2a."}},
		{"label beats the name", &acme, "tenant-acme", hashed, Decision{Reason: "ann is OrgAdmin of acme, but namespace tenant-acme belongs to Acme Corp.."}},
		{"a label outside tenant namespaces is ignored", &acme, "kube-system", labelled, Decision{Reason: `ann is OrgAdmin of acme, but namespace "kube-system" belongs to no org; only a SuperAdmin may act there.`}},
		{"member", &member, "tenant-acme", nil, Decision{Reason: "bob is only a member of acme; only an owner or admin of the org may use the board."}},
		{"no orgs", &orphan, "tenant-acme", nil, Decision{Reason: "s-9 belongs to no org; only an org owner or admin may use the board."}},
		{"no name at all", &anon, "hanzo", nil, Decision{Reason: "This identity belongs to no org; only an org owner or admin may use the board."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, tt.p.AuthorizeNamespace(tt.ns, tt.labels)); diff != "" {
				t.Errorf("AuthorizeNamespace(%q, %v) (-want +got):\n%s", tt.ns, tt.labels, diff)
			}
		})
	}
}

func TestOrgOfNamespace(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		ns     string
		labels map[string]string
		want   string
	}{
		{"hanzo", map[string]string{NamespaceOrgLabel: "acme"}, "hanzo"},
		{"hanzo-testnet", nil, "hanzo"},
		{"tenant-acme", nil, "acme"},
		{"tenant-acme", map[string]string{}, "acme"},
		{"tenant-acme-corp-3f2a", map[string]string{NamespaceOrgLabel: "Acme Corp."}, "Acme Corp."},
		{"default", map[string]string{NamespaceOrgLabel: "acme"}, ""},
	} {
		if got := OrgOfNamespace(tt.ns, tt.labels); got != tt.want {
			t.Errorf("OrgOfNamespace(%q, %v) = %q, want %q", tt.ns, tt.labels, got, tt.want)
		}
	}
	var nobody *Principal
	if nobody.RoleName() != "not logged in" {
		t.Errorf("nil RoleName = %q", nobody.RoleName())
	}
}
