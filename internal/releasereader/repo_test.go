package releasereader

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hanzoai/driftboard/model"
)

func TestResolve(t *testing.T) {
	maps := append([]RepoMapping{
		{Image: "localhost:5000/*", GitHub: ""},
		{Image: "registry.example.com/team/*", GitHub: "acme/*"},
	}, DefaultRepoMappings...)
	for repo, want := range map[string]subject{
		"ghcr.io/hanzoai/iam":                 {gitHub: "hanzoai/iam", image: "ghcr.io/hanzoai/iam"},
		"GHCR.io/HanzoAI/IAM":                 {gitHub: "hanzoai/iam", image: "ghcr.io/HanzoAI/IAM"},
		"ghcr.io/hanzoai/iam/worker":          {gitHub: "hanzoai/iam", image: "ghcr.io/hanzoai/iam/worker"},
		"containers.ghe.example.com/acme/api": {gitHub: "acme/api", image: "containers.ghe.example.com/acme/api"},
		"hanzoai/iam":                         {gitHub: "hanzoai/iam"},
		"docker.io/hanzoai/iam":               {gitHub: "hanzoai/iam", image: "docker.io/hanzoai/iam"},
		"oci.hanzo.ai/hanzo/iam":              {gitHub: "hanzoai/iam", image: "oci.hanzo.ai/hanzo/iam"},
		"registry.example.com/team/api":       {gitHub: "acme/api", image: "registry.example.com/team/api"},
		"ghcr.io/hanzoai/tenant-acme/web": {image: "ghcr.io/hanzoai/tenant-acme/web",
			noGitHub: "no GitHub repository maps to ghcr.io/hanzoai/tenant-acme/web (releases.repos): not looked up"},
		"localhost:5000/acme/api": {image: "localhost:5000/acme/api",
			noGitHub: "no GitHub repository maps to localhost:5000/acme/api (releases.repos): not looked up"},
		"ghcr.io/solo":            {image: "ghcr.io/solo", noGitHub: `"solo" is not owner/repo: no release lookup`},
		"ghcr.io/a/../../../user": {image: "ghcr.io/a/../../../user", noGitHub: `"a/.." is not a GitHub owner/repo: no release lookup`},
		"ghcr.io/owner/repo?x=1":  {image: "ghcr.io/owner/repo?x=1", noGitHub: `"owner/repo?x=1" is not a GitHub owner/repo: no release lookup`},
		// A value from the cluster is quoted as it is, never with Go's %q
		// (\a): the printers' termtext.Sanitize is the one spelling (\x07).
		"api\a":                    {noGitHub: "\"api\a\" is not owner/repo: no release lookup"},
		"ghcr.io/own\ner/re\x9bpo": {image: "ghcr.io/own\ner/re\x9bpo", noGitHub: "\"own\ner/re\x9bpo\" is not a GitHub owner/repo: no release lookup"},
	} {
		got := resolve(repo, maps)
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(subject{})); diff != "" {
			t.Errorf("resolve(%q) (-want +got):\n%s", repo, diff)
		}
	}
}

func TestHighestSemver(t *testing.T) {
	for _, tc := range []struct {
		tags []string
		want string
	}{
		{[]string{"v1.2.0", "v1.10.0", "v1.9.9", "latest", "v2.0.0-rc1", "1.99.0"}, "v1.10.0"},
		{[]string{"latest", "main", "sha-abc"}, ""},
		{[]string{"v0.0.1", "v99999999999999999999.0.0"}, "v0.0.1"},
		{nil, ""},
	} {
		if got := HighestSemver(tc.tags); got != tc.want {
			t.Errorf("HighestSemver(%v) = %q, want %q", tc.tags, got, tc.want)
		}
	}
}

const (
	dA = "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	dB = "sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

// model.CheckDigests is pure and lives in model (the UI shows its note); it
// is tested here with the reader that feeds it the tag digest.
func TestCheckDigests(t *testing.T) {
	for _, tc := range []struct {
		name     string
		tag      string
		ids      []string
		differs  bool
		mixed    bool
		unknown  int
		wantNote string
	}{
		{"all on the tag's digest", dA, []string{"ghcr.io/x/y@" + dA, "docker-pullable://ghcr.io/x/y@" + dA}, false, false, 0, ""},
		{"tag moved", dB, []string{"ghcr.io/x/y@" + dA}, true, false, 0,
			"running digest ≠ tag digest (running sha256:aaaaaaaaaaaa, tag sha256:bbbbbbbbbbbb)"},
		{"mixed, tag unknown", "", []string{"ghcr.io/x/y@" + dA, "ghcr.io/x/y@" + dB}, false, true, 0,
			"pods run 2 different digests under one tag (sha256:aaaaaaaaaaaa, sha256:bbbbbbbbbbbb)"},
		{"mixed and moved", dB, []string{"ghcr.io/x/y@" + dA, "ghcr.io/x/y@" + dB}, true, true, 0,
			"running digest ≠ tag digest (running sha256:aaaaaaaaaaaa, sha256:bbbbbbbbbbbb, tag sha256:bbbbbbbbbbbb)"},
		{"local image IDs are not compared", dB, []string{dA, "docker://" + dA, "", "ghcr.io/x/y@sha256:short"}, false, false, 4, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := model.CheckDigests(tc.tag, tc.ids)
			if c.Differs() != tc.differs || c.Mixed() != tc.mixed || c.Unknown != tc.unknown || c.Note() != tc.wantNote {
				t.Errorf("CheckDigests = %+v differs=%v mixed=%v note=%q; want differs=%v mixed=%v unknown=%d note=%q",
					c, c.Differs(), c.Mixed(), c.Note(), tc.differs, tc.mixed, tc.unknown, tc.wantNote)
			}
		})
	}
}
