// Package modeltest holds the rows the tests of model's subpackages share
// (the store's, the query language's): an App as Build reads it, a fleet
// for benchmarks. model's own tests keep their copies, since a package's
// tests cannot import a package that imports it.
package modeltest

import (
	"time"

	"github.com/hanzoai/driftboard/model"
)

// T0 is the tests' "now".
var T0 = time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC)

// Ptr returns a pointer to a copy of v.
func Ptr[T any](v T) *T { return &v }

// BaseApp is a healthy iam App in hanzo; tests perturb copies of it.
func BaseApp() model.AppObject {
	return model.AppObject{
		Key:             model.Key{Cluster: "prod", Namespace: "hanzo", Name: "iam"},
		Kind:            "App",
		Role:            "iam",
		ImageRepository: "ghcr.io/hanzoai/iam",
		ImageTag:        "v1.2.3",
		Replicas:        Ptr(int32(2)),
		Phase:           "Running",
		ReadyReplicas:   2,
		Endpoints:       []string{"https://iam.hanzo.ai"},
		CreatedAt:       T0.Add(-time.Hour),
	}
}

// BaseWorkload is BaseApp's Deployment, rolled out and ready.
func BaseWorkload() *model.Workload {
	return &model.Workload{
		Kind:               model.KindDeployment,
		Name:               "iam",
		OwnedByApp:         true,
		Generation:         3,
		ObservedGeneration: 3,
		Replicas:           Ptr(int32(2)),
		ReadyReplicas:      2,
		UpdatedReplicas:    2,
		AvailableReplicas:  2,
		Containers: []model.Container{
			{Name: "proxy", Image: "ghcr.io/hanzoai/proxy:v0.1.0"},
			{Name: "iam", Image: "ghcr.io/hanzoai/iam:v1.2.3"},
		},
	}
}

// PendingWorkload is a workload not listed yet: its cluster syncs.
func PendingWorkload(kind model.WorkloadKind) *model.Workload {
	return &model.Workload{Kind: kind, Name: "iam", Pending: "Deployments in hanzo not listed yet (cluster syncing)"}
}

// FoundRelease is the release of BaseApp's tag, with assets.
func FoundRelease() model.Release {
	return model.Release{State: model.ReleaseFound, LatestTag: "v1.2.3", URL: "https://github.com/hanzoai/iam/releases/tag/v1.2.3", Assets: 4, CheckedAt: T0}
}
