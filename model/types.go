// Package model is the board's domain: one AppView row per App built from plain
// observed facts, the fleet store and its snapshots, the principal's scope, and
// the board's filter and sort. It is pure: no IO, no clock (callers pass now),
// no client-go.
package model

import (
	"time"

	"github.com/hanzoai/driftboard/drift"
)

// Condition is a Kubernetes-style condition, flattened.
type Condition struct {
	Type    string `json:"type"`
	Status  string `json:"status"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// Container is a container's name and full image reference.
type Container struct {
	Name  string `json:"name"`
	Image string `json:"image"`
}

// AppObject is what the kube layer observed of one App (or Service) custom
// resource, already decoded from unstructured. DecodeErrors lists fields that
// were present but malformed; the row still appears and says so.
type AppObject struct {
	Key
	Kind              string // "App" or "Service"
	UID               string
	ResourceVersion   string
	Generation        int64
	CreatedAt         time.Time
	Labels            map[string]string
	Annotations       map[string]string
	Role              string
	ImageRepository   string // spec.image.repository, e.g. ghcr.io/hanzoai/iam
	ImageTag          string // spec.image.tag, the declared tag
	Replicas          *int32 // spec.replicas (nil means 1)
	Phase             string // status.phase
	ReadyReplicas     int32
	AvailableReplicas int32
	ObservedGen       int64
	Conditions        []Condition
	Endpoints         []string
	LastGoodImage     string
	Upgrade           Upgrade           // status.upgrade and upgradeHistory (LastGoodImage is above)
	TagSetAt          time.Time         // when spec.image.tag was last set (managedFields); zero if unknown
	NamespaceLabels   map[string]string // the namespace's labels; nil when not readable
	DecodeErrors      []string
}

// WorkloadKind is the kind of workload the operator makes for an App.
type WorkloadKind string

const (
	KindDeployment  WorkloadKind = "Deployment"
	KindStatefulSet WorkloadKind = "StatefulSet"
	KindNone        WorkloadKind = "" // the role makes no workload (ingress, unknown)
)

// PodSet is a group of pods running one pod template: a Deployment's
// ReplicaSet, or a StatefulSet revision. During a rollout there are several.
type PodSet struct {
	Name       string      `json:"name"`
	Containers []Container `json:"containers"`
	Replicas   int32       `json:"replicas"`
	Available  int32       `json:"available"`
	Current    bool        `json:"current"` // runs the workload's current template
	Digests    []string    `json:"digests,omitempty"`
}

// Workload is what the kube layer observed of the Deployment or StatefulSet
// with the App's name in the App's namespace.
type Workload struct {
	Kind                WorkloadKind
	Name                string
	UID                 string
	OwnedByApp          bool // has a controller ownerReference to the App
	Generation          int64
	ObservedGeneration  int64
	Replicas            *int32 // spec.replicas (nil means 1)
	ReadyReplicas       int32
	UpdatedReplicas     int32
	AvailableReplicas   int32
	Paused              bool
	Containers          []Container // spec.template: what the workload wants to run
	TemplateAnnotations map[string]string
	Conditions          []Condition
	PodSets             []PodSet // what pods really run; nil when not observed
	// FailingPods are the workload's pods that do not run, where its pods
	// are watched (only while it rolls out or is unready); nil otherwise.
	FailingPods []PodFailure
	// RolledOut: the controller finished rolling out the current template
	// (a StatefulSet whose currentRevision is its updateRevision); for a
	// Deployment the Progressing condition says so instead.
	RolledOut bool
	// Partition is a StatefulSet's RollingUpdate partition when above 0: the
	// pods below it stay on the old revision by design (kubectl counts the
	// rollout done once the pods at or above it are updated).
	Partition int32
	// Unreadable is set, alone with Kind and Name, when this identity may
	// not read the workload's kind in the namespace: "cannot read
	// Deployments in hanzo (forbidden)". Not "not found".
	Unreadable string
	// Pending is set, alone with Kind and Name, while the workload's kind
	// has not been listed yet (its cluster is still syncing): nothing about
	// it is known, so it is neither missing nor healthy, and says why.
	Pending string
}

// ReleaseState says how much the release facts of a row can be trusted.
type ReleaseState string

const (
	ReleaseOff         ReleaseState = "off"           // release checks switched off
	ReleasePending     ReleaseState = "pending"       // not read yet
	ReleaseFound       ReleaseState = "found"         // checked: release for the declared tag exists
	ReleaseNone        ReleaseState = "none"          // checked: no release for the declared tag
	ReleaseRateLimited ReleaseState = "rate-limited"  // GitHub refused for now
	ReleaseError       ReleaseState = "error"         // the check failed
	ReleaseNotLooked   ReleaseState = "not-looked-up" // no GitHub repo maps to the image
)

// Release is what the release reader knows of one row's repo and declared tag.
type Release struct {
	State     ReleaseState `json:"state"`
	LatestTag string       `json:"latestTag,omitempty"`
	// LatestPublished is when GitHub published LatestTag: a stale row is
	// stale since then. Zero when unknown (the registry's tag, not read).
	LatestPublished time.Time `json:"latestPublishedAt,omitzero"`
	URL             string    `json:"url,omitempty"`
	Assets          int       `json:"assets"`
	Detail          string    `json:"detail,omitempty"` // why: error text, "until 14:05"
	CheckedAt       time.Time `json:"checkedAt,omitzero"`
	TagDigest       string    `json:"tagDigest,omitempty"` // registry digest behind the declared tag
	// DigestNote is what the registry said when there is no TagDigest
	// ("tag v1.2.0 not found in ghcr.io/x/y") or why a refresh failed.
	DigestNote string `json:"digestNote,omitempty"`
	// Since is when an unchecked state began (first asked for, or the
	// failure); zero when unknown.
	Since time.Time `json:"since,omitzero"`
	// Releases are the repo's newest published releases (drafts left out,
	// at most MaxRowReleases, newest first): the tags a promotion may
	// target. Empty when the repo's releases list was not read.
	Releases []ReleaseTag `json:"releases,omitempty"`
}

// MaxRowReleases bounds a row's release list.
const MaxRowReleases = 20

// Health of a row, from its workload.
type Health string

const (
	HealthGreen   Health = "green"
	HealthYellow  Health = "yellow"
	HealthRed     Health = "red"
	HealthUnknown Health = ""
	// HealthSyncing: the workload is not listed yet (its cluster syncs).
	HealthSyncing Health = "syncing"
)

// RolloutState summarises the workload's rollout.
type RolloutState string

const (
	RolloutNone        RolloutState = ""            // no workload observed
	RolloutComplete    RolloutState = "complete"    // every replica runs the current template
	RolloutProgressing RolloutState = "progressing" // updated/ready below desired
	RolloutStuck       RolloutState = "stuck"       // ProgressDeadlineExceeded or pods failing
	RolloutPaused      RolloutState = "paused"
)

// WorkloadView is the board's view of the workload behind a row.
type WorkloadView struct {
	Kind        WorkloadKind `json:"kind"`
	Name        string       `json:"name"`
	Found       bool         `json:"found"`
	OwnedByApp  bool         `json:"ownedByApp"`
	SpecTag     string       `json:"specTag"` // tag in the workload's pod template
	Desired     int32        `json:"desired"`
	Ready       int32        `json:"ready"`
	Updated     int32        `json:"updated"`
	Available   int32        `json:"available"`
	Paused      bool         `json:"paused"`
	Rollout     RolloutState `json:"rollout"`
	TargetTag   string       `json:"targetTag,omitempty"` // tag being rolled to
	Message     string       `json:"message,omitempty"`   // why stuck, etc.
	Conditions  []Condition  `json:"conditions,omitempty"`
	RestartedAt string       `json:"restartedAt,omitempty"`
	RestartedBy string       `json:"restartedBy,omitempty"`
	// None says why there is no workload by design ("delegated", "no-op",
	// "route-only", "unknown role"); "" when the role makes one.
	None string `json:"none,omitempty"`
	// Unreadable: the identity may not read this kind here; health unknown.
	Unreadable string `json:"unreadable,omitempty"`
	// Pending: not listed yet while the cluster syncs; health, running tag
	// and the drift flags that need it (un-rolled, floating-running) are
	// unknown until it is.
	Pending string   `json:"pending,omitempty"`
	Digests []string `json:"runningDigests,omitempty"`
	// DigestsNote: what a read of the pods saw besides Digests (no pods,
	// pods reporting none: PodDigests.Note); "" when not read or all did.
	DigestsNote string `json:"runningDigestsNote,omitempty"`
}

// AppView is one row on the drift board. The first fields are the design
// document's AppView JSON shape; the rest is what the board needs beyond it.
type AppView struct {
	ID          string      `json:"id"`  // <org>/<app>/<env>
	Org         string      `json:"org"` // hanzo.ai/org, else the image namespace's brand
	App         string      `json:"app"`
	Env         Env         `json:"env"`  // main|test|dev
	Repo        string      `json:"repo"` // owner/repo
	Registry    string      `json:"registry"`
	DeclaredTag string      `json:"declaredTag"`
	RunningTag  string      `json:"runningTag"`
	LatestTag   string      `json:"latestTag"`
	Health      Health      `json:"health"`
	Phase       string      `json:"phase"`
	Cluster     string      `json:"cluster"`
	Namespace   string      `json:"namespace"`
	Endpoints   []string    `json:"endpoints"`
	Drift       drift.Drift `json:"drift"`

	Kind       string            `json:"kind"` // App | Service | chart (a CD Application with no App CR)
	Role       string            `json:"role"`
	Tenant     string            `json:"tenant"`
	Workload   WorkloadView      `json:"workload"`
	Release    Release           `json:"release"`
	Upgrade    *Upgrade          `json:"upgrade,omitempty"`  // the operator's upgrade state, when it has one
	Problems   []Problem         `json:"problems,omitempty"` // malformed CR, missing workload, ...
	Conditions []Condition       `json:"conditions,omitempty"`
	Labels     map[string]string `json:"labels,omitempty"`
	Offline    bool              `json:"offline"` // the cluster's watch is down; not live
	ObservedAt time.Time         `json:"observedAt"`
	// DriftSince is when the drift began as the cluster tells it (the
	// operation that set the declared tag); nil (JSON null) when unknown.
	DriftSince *time.Time `json:"driftSince"`
	CreatedAt  time.Time  `json:"createdAt,omitzero"`
	// Git is the row's sync state against git, from the CD Application
	// that lists its object.
	Git GitSync `json:"git,omitzero"`
	// Chart is set on a chart-plane row (Kind chart): the CD Application
	// it is built from, and where its declared tag was read.
	Chart *ChartSource `json:"chart,omitempty"`
	// Promotion is the row's promotion in flight, found from the open pull
	// requests on the promotion branches; nil when there is none, or when
	// GitHub was not read.
	Promotion *Promotion `json:"promotion,omitempty"`
}

// Key returns the row's identity in the store.
func (v *AppView) Key() Key { return Key{Cluster: v.Cluster, Namespace: v.Namespace, Name: v.App} }

// ConnPhase is a cluster's connection state.
type ConnPhase string

const (
	ConnSyncing      ConnPhase = "syncing"
	ConnLive         ConnPhase = "live"
	ConnReconnecting ConnPhase = "reconnecting"
	// ConnUnresponsive: connected, but no watch event and no health check
	// answered for 45 s (a frozen server); rows are stale.
	ConnUnresponsive ConnPhase = "unresponsive"
	ConnFailed       ConnPhase = "failed"
)

// ClusterState is one cluster's connection state as the board shows it.
type ClusterState struct {
	Name    string    `json:"name"`
	Phase   ConnPhase `json:"phase"`
	Since   time.Time `json:"since"`
	Reason  string    `json:"reason,omitempty"`  // why failed / reconnecting
	Notices []string  `json:"notices,omitempty"` // e.g. "namespace tenant-x: forbidden"
	// While syncing: Apps received so far, and how many the API server
	// holds (0: not known), for "syncing n/N".
	Listed   int `json:"listed,omitempty"`
	Expected int `json:"expected,omitempty"`
	// While a failed setup is retried: the attempts that failed so far,
	// when the next begins, and whether the last never reached the API
	// server (refused, no route, DNS, timeout). Attempt 0: not retried.
	Attempt     int       `json:"attempt,omitempty"`
	RetryAt     time.Time `json:"retryAt,omitzero"`
	Unreachable bool      `json:"unreachable,omitempty"`
}
