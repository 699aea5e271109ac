package model

import (
	"strings"
	"time"

	"github.com/hanzoai/driftboard/drift"
)

var t0 = time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC)

var sha = "sha256:" + strings.Repeat("ab", 32)

func ptr[T any](v T) *T { return &v }

// baseApp is a healthy iam App in hanzo; tests perturb copies of it.
func baseApp() AppObject {
	return AppObject{
		Key:             Key{Cluster: "prod", Namespace: "hanzo", Name: "iam"},
		Kind:            "App",
		Role:            "iam",
		ImageRepository: "ghcr.io/hanzoai/iam",
		ImageTag:        "v1.2.3",
		Replicas:        ptr(int32(2)),
		Phase:           "Running",
		ReadyReplicas:   2,
		Endpoints:       []string{"https://iam.hanzo.ai"},
		CreatedAt:       t0.Add(-time.Hour),
	}
}

func baseWorkload() *Workload {
	return &Workload{
		Kind:               KindDeployment,
		Name:               "iam",
		OwnedByApp:         true,
		Generation:         3,
		ObservedGeneration: 3,
		Replicas:           ptr(int32(2)),
		ReadyReplicas:      2,
		UpdatedReplicas:    2,
		AvailableReplicas:  2,
		Containers: []Container{
			{Name: "proxy", Image: "ghcr.io/hanzoai/proxy:v0.1.0"},
			{Name: "iam", Image: "ghcr.io/hanzoai/iam:v1.2.3"},
		},
	}
}

func foundRelease() Release {
	return Release{State: ReleaseFound, LatestTag: "v1.2.3", URL: "https://github.com/hanzoai/iam/releases/tag/v1.2.3", Assets: 4, CheckedAt: t0}
}

func kindsOf(d drift.Drift) []drift.DriftKind {
	out := []drift.DriftKind{}
	for _, f := range d.Flags {
		out = append(out, f.Kind)
	}
	return out
}
