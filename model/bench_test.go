package model

import (
	"fmt"
	"testing"
)

const benchRows = 10000

type benchInput struct {
	app AppObject
	wl  *Workload
	rel Release
}

// benchFleet is a deterministic 10,000-App fleet with a realistic mix of drift.
func benchFleet() []benchInput {
	namespaces := []string{"hanzo", "hanzo-mainnet", "hanzo-testnet", "hanzo-devnet"}
	for i := range 46 {
		namespaces = append(namespaces, fmt.Sprintf("tenant-org%02d", i))
	}
	brands := []string{"hanzoai", "zooai", "luxfi", "acme"}
	out := make([]benchInput, benchRows)
	for i := range out {
		a := baseApp()
		a.Cluster = []string{"prod", "edge"}[i%2]
		a.Namespace = namespaces[i%len(namespaces)]
		a.Name = fmt.Sprintf("svc-%05d", i)
		a.Role = []string{"service", "sql", "iam", "ingress", "spa"}[i%5]
		a.ImageRepository = "ghcr.io/" + brands[i%len(brands)] + "/" + a.Name
		a.ImageTag = fmt.Sprintf("v1.%d.%d", i%7, i%3)
		if i%13 == 0 {
			a.ImageTag = "latest"
		}
		wl := baseWorkload()
		wl.Name = a.Name
		wl.Containers = []Container{{Name: "app", Image: a.ImageRepository + ":" + fmt.Sprintf("v1.%d.%d", i%7, i%5)}}
		if i%17 == 0 {
			wl = nil
		}
		rel := Release{State: ReleaseFound, LatestTag: fmt.Sprintf("v1.%d.0", i%9), URL: "https://github.com/x/y/releases/tag/v1", Assets: i % 4}
		out[i] = benchInput{a, wl, rel}
	}
	return out
}

func benchStore(b *testing.B) (*Store, []AppView) {
	b.Helper()
	in := benchFleet()
	s := NewStore()
	views := make([]AppView, len(in))
	for i, x := range in {
		views[i] = Build(x.app, x.wl, x.rel, t0)
		s.Upsert(views[i])
	}
	return s, views
}

func BenchmarkBuild(b *testing.B) {
	in := benchFleet()
	b.ReportAllocs()
	done := reportCPU(b)
	for b.Loop() {
		for _, x := range in {
			_ = Build(x.app, x.wl, x.rel, t0)
		}
	}
	done()
}

func BenchmarkSnapshot(b *testing.B) {
	b.Run("unchanged", func(b *testing.B) {
		s, _ := benchStore(b)
		s.Snapshot()
		b.ReportAllocs()
		done := reportCPU(b)
		for b.Loop() {
			_ = s.Snapshot()
		}
		done()
	})
	b.Run("upsert+snapshot", func(b *testing.B) {
		s, views := benchStore(b)
		b.ReportAllocs()
		done := reportCPU(b)
		for i := 0; b.Loop(); i++ {
			s.Upsert(views[i%len(views)])
			_ = s.Snapshot()
		}
		done()
	})
}

func BenchmarkSelect(b *testing.B) {
	s, _ := benchStore(b)
	rows := s.Snapshot().Rows()
	for _, tc := range []struct{ name, q string }{
		{"all-by-severity", ""},
		{"text", "svc-0"},
		{"keys", "env:main,test -sev:ok ns:tenant-* flag:stale,unrolled"},
		{"text+keys", "hanzo/svc-1 health:green,yellow -flag:floating"},
	} {
		q, err := ParseQuery(tc.q)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			n := 0
			done := reportCPU(b)
			for b.Loop() {
				n = len(Select(rows, q, SortSeverity))
			}
			done()
			b.ReportMetric(float64(n), "rows")
		})
	}
}

func BenchmarkParseImage(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_, _ = ParseImage("ghcr.io/hanzoai/iam:v1.2.3@" + sha)
	}
}
