package promote_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/model"
)

func TestLocateFindsTheOneDeclaringFile(t *testing.T) {
	t.Parallel()
	g := seeded(t)
	for app, want := range map[string]string{"gateway": "gateway-v1.yaml", "commerce-worker": "commerce-v1.yaml", "ledger": "ledger-v1.yaml"} {
		d, err := promote.Locate(context.Background(), g, onGitHub, promote.Lookup{Row: row(app), Applications: []*model.CDApplication{universeCRs()}})
		if err != nil {
			t.Fatalf("%s: %v", app, err)
		}
		if d.Path != crsDir+"/"+want || d.Repo != universe || d.Base != "main" || d.Application != "apps.hanzo.ai/hanzo-cd/universe-crs" || d.BlobSHA == "" {
			t.Errorf("%s: found %+v", app, d)
		}
	}
}

func TestLocateRefuses(t *testing.T) {
	t.Parallel()
	g := seeded(t)
	other := universeCRs()
	other.Name, other.RepoURL = "elsewhere", "https://gitlab.example/hanzoai/universe"
	headless := universeCRs()
	headless.TargetRevision = "HEAD"
	chart := universeCRs()
	chart.Chart = "gateway"
	tests := []struct {
		name string
		in   promote.Lookup
		says []string
	}{
		{"two files", promote.Lookup{Row: row("iam"), Applications: []*model.CDApplication{universeCRs()}},
			[]string{"declared in 2 files", crsDir + "/iam-v1.yaml", crsDir + "/iam.yaml"}},
		{"templated", promote.Lookup{Row: row("kms"), Applications: []*model.CDApplication{universeCRs()}},
			[]string{crsDir + "/kms-v1.yaml", "template"}},
		{"no file", promote.Lookup{Row: row("billing"), Applications: []*model.CDApplication{universeCRs()}},
			[]string{"no file under " + crsDir, "declares App hanzo/billing", "6 YAML files read"}},
		{"no Application", promote.Lookup{Row: row("gateway")}, []string{"no CD Application is known to sync App hanzo/gateway", "promote.files"}},
		{"another host", promote.Lookup{Row: row("gateway"), Applications: []*model.CDApplication{other}, TrackingID: "elsewhere:hanzo.ai/App:hanzo/gateway"},
			[]string{`"gitlab.example", not the configured GitHub host github.com`}},
		{"HEAD", promote.Lookup{Row: row("gateway"), Applications: []*model.CDApplication{headless}}, []string{"follows HEAD"}},
		{"chart", promote.Lookup{Row: row("gateway"), Applications: []*model.CDApplication{chart}}, []string{"Helm chart gateway"}},
		{"override names another App's file", promote.Lookup{Row: row("gateway"),
			Override: &promote.FileOverride{Repo: universe, Path: crsDir + "/commerce-v1.yaml"}}, []string{"promote.files", "no App hanzo/gateway"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := promote.Locate(context.Background(), g, onGitHub, tt.in)
			var r *promote.Refused
			if !errors.As(err, &r) {
				t.Fatalf("err = %v, want a refusal", err)
			}
			for _, s := range tt.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("refusal %q lacks %q", err, s)
				}
			}
		})
	}
}

func TestLocateByTrackingIDAndOverride(t *testing.T) {
	t.Parallel()
	g := seeded(t)
	r := row("gateway")
	r.Git = model.GitSync{State: model.GitNotManaged}
	d, err := promote.Locate(context.Background(), g, onGitHub, promote.Lookup{Row: r, Applications: []*model.CDApplication{universeCRs()},
		TrackingID: "universe-crs:hanzo.ai/App:hanzo/gateway"})
	if err != nil || d.Path != crsDir+"/gateway-v1.yaml" {
		t.Fatalf("by tracking-id: %+v, %v", d, err)
	}
	d, err = promote.Locate(context.Background(), g, onGitHub, promote.Lookup{Row: r, Applications: []*model.CDApplication{universeCRs()},
		Override: &promote.FileOverride{Repo: universe, Path: crsDir + "/commerce-v1.yaml"}})
	if err == nil {
		t.Fatalf("the override did not win over the Application: %+v", d)
	}
	r = row("commerce")
	d, err = promote.Locate(context.Background(), g, onGitHub, promote.Lookup{Row: r, Override: &promote.FileOverride{Repo: universe, Path: crsDir + "/commerce-v1.yaml"}})
	if err != nil || d.Base != "main" || d.Application != "" || d.From != "the config's promote.files" {
		t.Fatalf("override: %+v, %v", d, err)
	}
}
