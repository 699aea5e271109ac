package demo

import (
	"fmt"
	"sync"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"

	"github.com/hanzoai/driftboard/model"
)

// The demo's two IAM identities, as their verified token claims.
var demoClaims = []model.Claims{
	{Subject: "demo-ops", Email: "ops@hanzo.ai", Name: "Hanzo Ops", PreferredUsername: "ops@hanzo.ai",
		Owner: model.SuperAdminOrg, Orgs: []model.OrgRole{{Org: model.SuperAdminOrg, Role: "owner"}, {Org: "hanzo", Role: "owner"}}},
	{Subject: "demo-dana", Email: "dana@acme.dev", Name: "Dana Reyes", PreferredUsername: "dana@acme.dev",
		Owner: "acme", Orgs: []model.OrgRole{{Org: "acme", Role: "admin"}}},
}

const tokenLifetime = time.Hour

// rbacDeniedNamespace has no RoleBinding for anyone's restarts, so the board
// can show Kubernetes refusing what IAM allows.
const rbacDeniedNamespace = "tenant-lux"

// identity is the demo's logged-in principal, switchable.
type identity struct {
	mu     sync.Mutex
	now    func() time.Time
	idx    int
	p      model.Principal
	expiry time.Time
}

func newIdentity(now func() time.Time) *identity {
	id := &identity{now: now}
	id.set(0)
	id.expiry = now().Add(tokenLifetime - 7*time.Minute) // logged in a while ago
	return id
}

func (id *identity) set(i int) {
	id.idx = i % len(demoClaims)
	id.p = model.NewPrincipal(demoClaims[id.idx])
	id.expiry = id.now().Add(tokenLifetime)
}

// principal returns a copy: callers may keep it.
func (id *identity) principal() *model.Principal {
	id.mu.Lock()
	defer id.mu.Unlock()
	p := id.p
	p.Orgs = append([]model.OrgRole(nil), id.p.Orgs...)
	return &p
}

func (id *identity) expiresAt() time.Time {
	id.mu.Lock()
	defer id.mu.Unlock()
	return id.expiry
}

func (id *identity) next() *model.Principal {
	id.mu.Lock()
	id.set(id.idx + 1)
	id.mu.Unlock()
	return id.principal()
}

// kubeUser is the Kubernetes user name the API server sees: the IAM
// identity carried by the board's transport.
func kubeUser(p *model.Principal) string { return "oidc:" + p.Email }

// access is the demo cluster's RBAC: reads are allowed; writes where the
// principal's org owns the namespace (everywhere for a SuperAdmin), except
// in rbacDeniedNamespace.
func (id *identity) access(attr *authorizationv1.ResourceAttributes) (bool, string) {
	p := id.principal()
	switch attr.Verb {
	case "get", "list", "watch":
		return true, `RBAC: allowed by ClusterRoleBinding "hanzo-viewers" of ClusterRole "view"`
	}
	res := attr.Resource
	if attr.Group != "" {
		res += "." + attr.Group
	}
	if d := p.Authorize(attr.Namespace); !d.Allowed {
		return false, fmt.Sprintf(`RBAC: no RoleBinding in namespace %q grants %q %s on %s`, attr.Namespace, kubeUser(p), attr.Verb, res)
	}
	if attr.Namespace == rbacDeniedNamespace {
		return false, fmt.Sprintf(`RBAC: ClusterRole "hanzo-deployer" is not bound in namespace %q; %q may not %s %s there`,
			attr.Namespace, kubeUser(p), attr.Verb, res)
	}
	return true, fmt.Sprintf(`RBAC: allowed by RoleBinding "hanzo-deployers/%s" of ClusterRole "hanzo-deployer"`, attr.Namespace)
}

// selfSubjectReview answers "who am I" with the principal's Kubernetes user.
func (id *identity) selfSubjectReview(action clienttesting.Action) (bool, runtime.Object, error) {
	p := id.principal()
	groups := []string{"system:authenticated"}
	for _, o := range p.Orgs {
		groups = append(groups, "oidc:"+o.Org)
	}
	return true, &authenticationv1.SelfSubjectReview{Status: authenticationv1.SelfSubjectReviewStatus{
		UserInfo: authenticationv1.UserInfo{Username: kubeUser(p), Groups: groups}}}, nil
}
