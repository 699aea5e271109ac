package model

import (
	"fmt"
	"strings"

	"github.com/hanzoai/driftboard/model/imageref"
)

// RoleClass is what the operator does for a role (hanzo-facts, checked
// against the operator's sources): make a workload, or make none by design.
type RoleClass string

const (
	RoleWorkload  RoleClass = "workload"   // a Deployment or StatefulSet of the App's name
	RoleDelegated RoleClass = "delegated"  // another controller acts (dns, gateway, …): phase Pending, reason Delegated
	RoleNoOp      RoleClass = "no-op"      // chain, validator: reason NoOp
	RoleRouteOnly RoleClass = "route-only" // ingress: shards, no same-name workload
	RoleUnknown   RoleClass = "unknown"    // the operator does not know it: Degraded / UnknownRole
)

var roleClasses = map[string]RoleClass{
	"gateway": RoleDelegated, "base": RoleDelegated, "mpc": RoleDelegated, "dns": RoleDelegated,
	"network": RoleDelegated, "nodeFleet": RoleDelegated, "luxRuntime": RoleDelegated,
	"agentDeployment": RoleDelegated, "managedDatabase": RoleDelegated, "node": RoleDelegated,
	"chain": RoleNoOp, "validator": RoleNoOp,
	"ingress": RoleRouteOnly,
}

// ClassOfApp is the role's class. The operator's own Ready reason wins over
// the table (it knows roles added after this board was built).
func ClassOfApp(app AppObject) RoleClass {
	for _, c := range app.Conditions {
		if c.Type != "Ready" {
			continue
		}
		switch c.Reason {
		case "Delegated":
			return RoleDelegated
		case "NoOp":
			return RoleNoOp
		case "UnknownRole":
			return RoleUnknown
		}
	}
	if ExpectedKind(app.Role) != KindNone {
		return RoleWorkload
	}
	if c, ok := roleClasses[app.Role]; ok {
		return c
	}
	return RoleUnknown
}

// MakesWorkload reports whether the class has a workload of the App's name.
func (c RoleClass) MakesWorkload() bool { return c == RoleWorkload }

// Upgrade is the operator's upgrade machinery for one App (status.upgrade,
// status.lastGoodImage, status.upgradeHistory).
type Upgrade struct {
	TargetImage   string          `json:"targetImage,omitempty"`
	Phase         string          `json:"phase,omitempty"` // Preflighting|Rolling|RollingBack|Failed
	LastGoodImage string          `json:"lastGoodImage,omitempty"`
	History       []UpgradeRecord `json:"history,omitempty"`
}

// UpgradeRecord is one entry of status.upgradeHistory.
type UpgradeRecord struct {
	Image   string `json:"image,omitempty"`
	Outcome string `json:"outcome,omitempty"` // Succeeded|RolledBack|PreflightFailed|Superseded
	At      string `json:"at,omitempty"`
	Message string `json:"message,omitempty"`
}

// UpgradeFailed is the operator's Failed phase: final until spec.image changes.
const UpgradeFailed = "Failed"

// Failed reports whether the last upgrade failed for good.
func (u *Upgrade) Failed() bool { return u != nil && u.Phase == UpgradeFailed }

// Words is the upgrade state in one line for the detail and get:
// "Rolling ghcr.io/x/api:v2 · last good ghcr.io/x/api:v1", or "none under
// way · last good …" when the operator reports no phase.
func (u *Upgrade) Words() string {
	s := "none under way"
	if u.Phase != "" {
		s = strings.TrimSpace(u.Phase + " " + u.TargetImage)
	}
	if u.LastGoodImage != "" {
		s += " · last good " + u.LastGoodImage
	}
	return s
}

// FailedWords says what a failed upgrade means for the person on call.
func (u *Upgrade) FailedWords() string {
	target := imageTag(u.TargetImage)
	good := orWord(u.LastGoodImage, "the last good image")
	return fmt.Sprintf("Upgrade to %s failed, rolled back to %s; a restart will not roll it — declare a new tag in git.",
		orWord(target, "the declared tag"), good)
}

func imageTag(ref string) string {
	if im, err := imageref.Parse(ref); err == nil && (im.Tag != "" || im.Digest != "") {
		return im.RunTag()
	}
	return ref
}

func orWord(s, w string) string {
	if strings.TrimSpace(s) == "" {
		return w
	}
	return s
}

// platformState adds what the operator itself says to the row: a role that
// makes no workload by design, an unknown role, a failed upgrade.
func platformState(app AppObject, class RoleClass, v *AppView) {
	if class == RoleUnknown {
		v.addProblem(ProblemUnknownRole, fmt.Sprintf("Role \"%s\" is unknown to the operator: it makes nothing (Degraded, UnknownRole).", app.Role))
		if v.Phase == "" {
			v.Phase = "Degraded"
		}
	}
	if app.Upgrade.Phase == "" && app.LastGoodImage == "" && len(app.Upgrade.History) == 0 {
		return
	}
	u := app.Upgrade
	u.LastGoodImage = app.LastGoodImage
	v.Upgrade = &u
	if u.Failed() {
		v.addProblem(ProblemUpgradeFailed, u.FailedWords())
	}
}
