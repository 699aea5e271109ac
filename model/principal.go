package model

import (
	"cmp"
	"fmt"
)

// SuperAdminOrg is the reserved org: users whose home org it is are SuperAdmins.
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
	Owner             string    `json:"owner"` // the home org: the org of the user record that signed in
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
	// Bound is what an allowed check saw; a confirmation carries it, so the
	// restart acts only on what the person was shown.
	Bound Binding `json:"-"`
	// Checks are the checks made on the way, each with its outcome; the
	// first refused or unknown one is the decision's reason.
	Checks []Check `json:"checks,omitempty"`
}

// Binding is what a restart's confirmation was given for: the workload
// object the check saw (its UID), who the API server said acts, and which
// API server. A confirmed restart is refused when any of them differs at the
// moment of the patch (a login change, a replaced workload, a context that
// now points elsewhere).
type Binding struct {
	UID    string // the workload's metadata.uid
	Actor  string // the API server's user name for the action
	Server string // the cluster's API server URL
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

// NewPrincipal derives the principal from verified claims, as IAM defines
// it: the home org is owner (the org of the user record that signed in;
// orgs[0].org when owner is absent). SuperAdmin: the home org is the
// reserved org admin (a membership in admin from another home org is not).
// OrgAdmin: role owner or admin in the home org (or isAdmin with one).
func NewPrincipal(c Claims) Principal {
	p := Principal{
		Subject: c.Subject,
		Email:   c.Email,
		Orgs:    append([]OrgRole(nil), c.Orgs...),
	}
	p.User = cmp.Or(c.PreferredUsername, c.Name, c.Email, c.Subject)
	p.HomeOrg = c.Owner
	if p.HomeOrg == "" && len(c.Orgs) > 0 {
		p.HomeOrg = c.Orgs[0].Org
	}
	if !isASCII(p.HomeOrg) {
		return p // refused by Authorize; no standing from a name IAM never issues
	}
	p.SuperAdmin = p.HomeOrg == SuperAdminOrg
	for _, o := range c.Orgs {
		if sameOrg(o.Org, p.HomeOrg) && (o.Role == "owner" || o.Role == "admin") {
			p.OrgAdmin = true
		}
	}
	if c.IsAdmin && p.HomeOrg != "" {
		p.OrgAdmin = true
	}
	return p
}

// sameOrg compares org names exactly up to ASCII case: no Unicode folding,
// so "ſtripe" (long s) is not "stripe". Non-ASCII names never match.
func sameOrg(a, b string) bool {
	if a == "" || !isASCII(a) || !isASCII(b) || len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lowerByte(a[i]) != lowerByte(b[i]) {
			return false
		}
	}
	return true
}

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// Authorize decides whether p may act on namespace, its labels unknown.
func (p *Principal) Authorize(namespace string) Decision {
	return p.AuthorizeNamespace(namespace, nil)
}

// AuthorizeNamespace decides whether p may act on namespace, whose labels
// (nil: not observed) name its org (OrgOfNamespace). A SuperAdmin may act
// everywhere; an OrgAdmin only where the namespace's org is its home org
// (admin rights in other orgs of the token do not widen that); members,
// non-ASCII org names and nobody are refused.
func (p *Principal) AuthorizeNamespace(namespace string, labels map[string]string) Decision {
	if p == nil {
		return Decision{Reason: "not logged in"}
	}
	who := p.who()
	switch {
	case !isASCII(p.HomeOrg):
		return Decision{Reason: fmt.Sprintf("%s's org name \"%s\" is not ASCII; IAM org names are, so it is refused.", who, p.HomeOrg)}
	case p.SuperAdmin:
		return Decision{Allowed: true, Reason: fmt.Sprintf("%s is a SuperAdmin (home org %s).", who, SuperAdminOrg)}
	case !p.OrgAdmin:
		if p.HomeOrg == "" {
			return Decision{Reason: fmt.Sprintf("%s belongs to no org; only an org owner or admin may use the board.", who)}
		}
		return Decision{Reason: fmt.Sprintf("%s is only a member of %s; only an owner or admin of the org may use the board.", who, p.HomeOrg)}
	}
	org := OrgOfNamespace(namespace, labels)
	switch {
	case org == "":
		return Decision{Reason: fmt.Sprintf("%s is OrgAdmin of %s, but namespace \"%s\" belongs to no org; only a SuperAdmin may act there.", who, p.HomeOrg, namespace)}
	case sameOrg(org, p.HomeOrg):
		return Decision{Allowed: true, Reason: fmt.Sprintf("%s is OrgAdmin of %s, which owns namespace %s.", who, p.HomeOrg, namespace)}
	}
	return Decision{Reason: fmt.Sprintf("%s is OrgAdmin of %s, but namespace %s belongs to %s.", who, p.HomeOrg, namespace, org)}
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
