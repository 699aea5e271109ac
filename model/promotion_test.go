package model

import (
	"strings"
	"testing"
)

func promotable() *AppView {
	return &AppView{App: "gateway", Namespace: "hanzo", Cluster: "prod", Env: EnvMain, Kind: "App", Repo: "hanzoai/gateway",
		DeclaredTag: "v1.8.2", RunningTag: "v1.8.2", LatestTag: "v1.9.0", Release: Release{State: ReleaseFound, LatestTag: "v1.9.0"},
		Workload: WorkloadView{Digests: []string{"sha256:aaa"}}}
}

func TestPromotionTarget(t *testing.T) {
	t.Parallel()
	releases := []ReleaseTag{{Tag: "v1.9.0", URL: "https://github.com/hanzoai/gateway/releases/tag/v1.9.0"}, {Tag: "v1.8.3"}}
	for _, tt := range []struct {
		name, want, tag, refusal string
		edit                     func(*AppView)
	}{
		{name: "latest by default", want: "", tag: "v1.9.0"},
		{name: "latest by name", want: "latest", tag: "v1.9.0"},
		{name: "an older release", want: "v1.8.3", tag: "v1.8.3"},
		{name: "not a release", want: "v2.0.0", refusal: "v2.0.0 is not a release the board read for hanzoai/gateway (read: v1.9.0, v1.8.3)"},
		{name: "already declared", want: "v1.9.0", refusal: "gateway already declares v1.9.0", edit: func(v *AppView) { v.DeclaredTag = "v1.9.0" }},
		{name: "releases not read", refusal: "have not been read (rate-limited)", edit: func(v *AppView) { v.Release = Release{State: ReleaseRateLimited, Detail: "rate-limited"} }},
		{name: "chart plane", refusal: "Helm chart plane", edit: func(v *AppView) { v.Kind = KindChart }},
		{name: "no release", refusal: "has no release the board read", edit: func(v *AppView) { v.LatestTag, v.Release.State = "", ReleaseNone }},
	} {
		v := promotable()
		if tt.edit != nil {
			tt.edit(v)
		}
		got, why := PromotionTarget(v, releases, tt.want)
		if got.Tag != tt.tag || !strings.Contains(why, tt.refusal) || (tt.refusal == "") != (why == "") {
			t.Errorf("%s: %+v, %q; want %q refused %q", tt.name, got, why, tt.tag, tt.refusal)
		}
	}
}

func TestPromotionWords(t *testing.T) {
	t.Parallel()
	v := promotable()
	if b := PromotionBranch(v.Env, v.App, "v1.9.0"); b != "driftboard/main/gateway-v1.9.0" {
		t.Errorf("branch %q", b)
	}
	if title := PromotionTitle(v, "v1.9.0"); title != "gateway: v1.8.2 → v1.9.0 (main, prod)" {
		t.Errorf("title %q", title)
	}
	body := PromotionBody(v, ReleaseTag{Tag: "v1.9.0", URL: "https://x/notes", Digest: "sha256:bbb"}, "ada@hanzo.ai", "ada-gh")
	for _, want := range []string{"| declared | v1.8.2 |", "| running | v1.8.2 | sha256:aaa |", "| latest release | v1.9.0 |",
		"| promoted to | v1.9.0 | sha256:bbb |", "Release notes: https://x/notes", "Asked by ada@hanzo.ai (IAM), as GitHub user ada-gh"} {
		if !strings.Contains(body, want) {
			t.Errorf("body lacks %q:\n%s", want, body)
		}
	}
}
