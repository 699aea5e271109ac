package modeltest

import (
	"fmt"

	"github.com/hanzoai/driftboard/model"
)

// BenchRows is how many Apps BenchFleet has.
const BenchRows = 10000

// BenchInput is what Build reads for one App.
type BenchInput struct {
	App      model.AppObject
	Workload *model.Workload
	Release  model.Release
}

// BenchFleet is a deterministic 10,000-App fleet with a realistic mix of drift.
func BenchFleet() []BenchInput {
	namespaces := []string{"hanzo", "hanzo-mainnet", "hanzo-testnet", "hanzo-devnet"}
	for i := range 46 {
		namespaces = append(namespaces, fmt.Sprintf("tenant-org%02d", i))
	}
	brands := []string{"hanzoai", "zooai", "luxfi", "acme"}
	out := make([]BenchInput, BenchRows)
	for i := range out {
		a := BaseApp()
		a.Cluster = []string{"prod", "edge"}[i%2]
		a.Namespace = namespaces[i%len(namespaces)]
		a.Name = fmt.Sprintf("svc-%05d", i)
		a.Role = []string{"service", "sql", "iam", "ingress", "spa"}[i%5]
		a.ImageRepository = "ghcr.io/" + brands[i%len(brands)] + "/" + a.Name
		a.ImageTag = fmt.Sprintf("v1.%d.%d", i%7, i%3)
		if i%13 == 0 {
			a.ImageTag = "latest"
		}
		wl := BaseWorkload()
		wl.Name = a.Name
		wl.Containers = []model.Container{{Name: "app", Image: a.ImageRepository + ":" + fmt.Sprintf("v1.%d.%d", i%7, i%5)}}
		if i%17 == 0 {
			wl = nil
		}
		rel := model.Release{State: model.ReleaseFound, LatestTag: fmt.Sprintf("v1.%d.0", i%9), URL: "https://github.com/x/y/releases/tag/v1", Assets: i % 4}
		out[i] = BenchInput{a, wl, rel}
	}
	return out
}
