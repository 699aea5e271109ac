package model

import (
	"cmp"
	"fmt"
	"strings"
)

// SuperAdminOrg is the org whose members are SuperAdmins.
const SuperAdminOrg = "admin"

// OrgRole is one entry of the token's orgs claim.
type OrgRole struct {
	Org  string `json:"org"`
	Role string `json:"role"` // owner|admin|member
}

// Claims are the IAM token claims the board reads.
type Claims struct {
	Subject           string    `json:"sub"`
	Email             string    `json:"email"`
	Name              string    `json:"name"`
	PreferredUsername string    `json:"preferred_username"`
	Owner             string    `json:"owner"` // org of the app the token was minted through, not the user's org
	IsAdmin           bool      `json:"isAdmin"`
	Orgs              []OrgRole `json:"orgs"`
}

// Principal is who the board acts for, and what that allows.
type Principal struct {
	Subject    string    `json:"subject"`
	User       string    `json:"user"`
	Email      string    `json:"email"`
	HomeOrg    string    `json:"homeOrg"`
	Orgs       []OrgRole `json:"orgs"`
	SuperAdmin bool      `json:"superAdmin"`
	OrgAdmin   bool      `json:"orgAdmin"`
}

// Decision is an authorization verdict with a sentence saying who and why.
type Decision struct {
	Allowed bool   `json:"allowed"`
	Reason  string `json:"reason"`
	// Actor is who the API server authenticated for this action (nil when
	// not asked): the dialog names it, the restart records it.
	Actor *Actor `json:"actor,omitempty"`
}

// Actor is an identity as the API server authenticated it
// (SelfSubjectReview), with the IAM display name beside it.
type Actor struct {
	Username string   `json:"username"`
	Groups   []string `json:"groups,omitempty"`
	Display  string   `json:"display,omitempty"` // the IAM user (preferred_username, name or email)
}

// Label is "iam:u-alice (alice@acme.dev)", or the username alone.
func (a *Actor) Label() string {
	if a == nil {
		return ""
	}
	if a.Display != "" && a.Display != a.Username {
		return a.Username + " (" + a.Display + ")"
	}
	return a.Username
}

// NewPrincipal derives the principal from verified claims. The home org is
// orgs[0]; Owner is deliberately ignored (it names the client app's org).
func NewPrincipal(c Claims) Principal {
	p := Principal{
		Subject: c.Subject,
		Email:   c.Email,
		Orgs:    append([]OrgRole(nil), c.Orgs...),
	}
	p.User = cmp.Or(c.PreferredUsername, c.Name, c.Email, c.Subject)
	if len(c.Orgs) > 0 {
		p.HomeOrg = c.Orgs[0].Org
	}
	for _, o := range c.Orgs {
		if o.Org == SuperAdminOrg {
			p.SuperAdmin = true
		}
		if p.HomeOrg != "" && o.Org == p.HomeOrg && (o.Role == "owner" || o.Role == "admin") {
			p.OrgAdmin = true
		}
	}
	if c.IsAdmin && p.HomeOrg != "" {
		p.OrgAdmin = true
	}
	return p
}

// Authorize decides whether p may see and act on namespace. A SuperAdmin may
// act everywhere; an OrgAdmin only where the namespace's tenant is its home
// org (admin rights in other orgs of the token do not widen that); members and
// nobody are refused.
func (p *Principal) Authorize(namespace string) Decision {
	if p == nil {
		return Decision{Reason: "not logged in"}
	}
	who := p.who()
	switch {
	case p.SuperAdmin:
		return Decision{Allowed: true, Reason: fmt.Sprintf("%s is a SuperAdmin (member of org %s).", who, SuperAdminOrg)}
	case !p.OrgAdmin:
		if p.HomeOrg == "" {
			return Decision{Reason: fmt.Sprintf("%s belongs to no org; only an org owner or admin may use the board.", who)}
		}
		return Decision{Reason: fmt.Sprintf("%s is only a member of %s; only an owner or admin of the org may use the board.", who, p.HomeOrg)}
	}
	tenant := TenantOf(namespace)
	switch {
	case tenant == "":
		return Decision{Reason: fmt.Sprintf("%s is OrgAdmin of %s, but namespace %q belongs to no org; only a SuperAdmin may act there.", who, p.HomeOrg, namespace)}
	case strings.EqualFold(tenant, p.HomeOrg): // namespaces are lowercase; org names may not be
		return Decision{Allowed: true, Reason: fmt.Sprintf("%s is OrgAdmin of %s, which owns namespace %s.", who, p.HomeOrg, namespace)}
	}
	return Decision{Reason: fmt.Sprintf("%s is OrgAdmin of %s, but namespace %s belongs to %s.", who, p.HomeOrg, namespace, tenant)}
}

func (p *Principal) who() string {
	if p.User == "" {
		return "This identity"
	}
	return p.User
}

// RoleName names the principal's standing: "SuperAdmin", "OrgAdmin of acme",
// "member of acme".
func (p *Principal) RoleName() string {
	switch {
	case p == nil:
		return "not logged in"
	case p.SuperAdmin:
		return "SuperAdmin"
	case p.OrgAdmin:
		return "OrgAdmin of " + p.HomeOrg
	case p.HomeOrg != "":
		return "member of " + p.HomeOrg
	}
	return "no org"
}

// Scoped reports whether the principal may see every namespace (SuperAdmin)
// or only those of its home org; kube uses it to narrow the watch.
func (p *Principal) Scoped() (all bool, org string) {
	if p == nil {
		return false, ""
	}
	if p.SuperAdmin {
		return true, ""
	}
	if p.OrgAdmin {
		return false, p.HomeOrg
	}
	return false, ""
}
