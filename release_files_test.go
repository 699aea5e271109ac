package main

import (
	"bytes"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// goreleaserConfig is the part of .goreleaser.yaml the release depends on;
// unknown fields are refused so a typo cannot pass as an ignored key.
type goreleaserConfig struct {
	Version     int    `yaml:"version"`
	ProjectName string `yaml:"project_name"`
	Builds      []struct {
		ID      string   `yaml:"id"`
		Main    string   `yaml:"main"`
		Binary  string   `yaml:"binary"`
		Env     []string `yaml:"env"`
		Flags   []string `yaml:"flags"`
		Ldflags []string `yaml:"ldflags"`
		Goos    []string `yaml:"goos"`
		Goarch  []string `yaml:"goarch"`
	} `yaml:"builds"`
	Archives []struct {
		ID           string   `yaml:"id"`
		IDs          []string `yaml:"ids"`
		Formats      []string `yaml:"formats"`
		NameTemplate string   `yaml:"name_template"`
		Files        []string `yaml:"files"`
	} `yaml:"archives"`
	Checksum struct {
		NameTemplate string `yaml:"name_template"`
		Algorithm    string `yaml:"algorithm"`
	} `yaml:"checksum"`
	Snapshot map[string]string `yaml:"snapshot"`
	Release  struct {
		GitHub struct{ Owner, Name string } `yaml:"github"`
	} `yaml:"release"`
	Krews []struct {
		Name             string   `yaml:"name"`
		IDs              []string `yaml:"ids"`
		Homepage         string   `yaml:"homepage"`
		ShortDescription string   `yaml:"short_description"`
		Description      string   `yaml:"description"`
		Caveats          string   `yaml:"caveats"`
		SkipUpload       bool     `yaml:"skip_upload"`
	} `yaml:"krews"`
}

func readGoreleaser(t *testing.T) goreleaserConfig {
	t.Helper()
	b, err := os.ReadFile(".goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	var c goreleaserConfig
	if err := dec.Decode(&c); err != nil {
		t.Fatalf(".goreleaser.yaml: %v", err)
	}
	return c
}

// stampVars are the -X targets of an ldflags text, e.g. "...cli.version".
func stampVars(ldflags string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`-X (\S+)=`).FindAllStringSubmatch(ldflags, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return out
}

func TestReleaseFilesGoreleaser(t *testing.T) {
	c := readGoreleaser(t)
	if c.Version != 2 || c.ProjectName != "driftboard" || len(c.Builds) != 1 {
		t.Fatalf("want version 2, project driftboard, one build; got %d %q %d builds", c.Version, c.ProjectName, len(c.Builds))
	}
	b := c.Builds[0]
	if b.Binary != "driftboard" || !slices.Contains(b.Env, "CGO_ENABLED=0") {
		t.Errorf("build must be the static driftboard binary: binary %q env %v", b.Binary, b.Env)
	}
	for _, want := range []string{"linux", "darwin"} {
		if !slices.Contains(b.Goos, want) {
			t.Errorf("goos %v lacks %s", b.Goos, want)
		}
	}
	for _, want := range []string{"amd64", "arm64"} {
		if !slices.Contains(b.Goarch, want) {
			t.Errorf("goarch %v lacks %s", b.Goarch, want)
		}
	}
	// The release binary and `make build` stamp the same variables.
	mk, err := os.ReadFile("Makefile")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"github.com/hanzoai/driftboard/internal/cli.commit",
		"github.com/hanzoai/driftboard/internal/cli.date",
		"github.com/hanzoai/driftboard/internal/cli.version",
	}
	if got := stampVars(strings.Join(b.Ldflags, " ")); !slices.Equal(got, want) {
		t.Errorf(".goreleaser.yaml stamps %v, want %v", got, want)
	}
	if got := stampVars(string(mk)); !slices.Equal(got, want) {
		t.Errorf("Makefile stamps %v, want %v", got, want)
	}
	if len(c.Archives) != 1 || !slices.Equal(c.Archives[0].Formats, []string{"tar.gz"}) || !slices.Contains(c.Archives[0].IDs, b.ID) {
		t.Errorf("want one tar.gz archive of build %q, got %+v", b.ID, c.Archives)
	}
	// The README in the archive links into docs/: both ship.
	if len(c.Archives) == 1 && (!slices.Contains(c.Archives[0].Files, "README.md") || !slices.Contains(c.Archives[0].Files, "docs/*.md")) {
		t.Errorf("the archive's files %v lack README.md or docs/*.md", c.Archives[0].Files)
	}
	if c.Checksum.NameTemplate == "" || c.Checksum.Algorithm != "sha256" {
		t.Errorf("checksums: %+v", c.Checksum)
	}
	if c.Release.GitHub.Owner != "hanzoai" || c.Release.GitHub.Name != "driftboard" {
		t.Errorf("release repository: %+v", c.Release.GitHub)
	}
}

func TestReleaseFilesKrewManifest(t *testing.T) {
	c := readGoreleaser(t)
	if len(c.Krews) != 1 {
		t.Fatalf("want one krew manifest, got %d", len(c.Krews))
	}
	k := c.Krews[0]
	// krew links the binary as kubectl-<name>: the plugin is `kubectl driftboard`.
	if !regexp.MustCompile(`^[a-z][a-z0-9-]*$`).MatchString(k.Name) || k.Name != "driftboard" {
		t.Errorf("krew plugin name %q", k.Name)
	}
	if len(c.Archives) == 0 || !slices.Contains(k.IDs, c.Archives[0].ID) {
		t.Errorf("krew ids %v do not name the archive %q", k.IDs, c.Archives[0].ID)
	}
	if !strings.HasPrefix(k.Homepage, "https://github.com/hanzoai/driftboard") {
		t.Errorf("homepage %q", k.Homepage)
	}
	// krew-index limits: a one-line short description, a description.
	if k.ShortDescription == "" || len(k.ShortDescription) > 255 || strings.Contains(k.ShortDescription, "\n") {
		t.Errorf("short_description %q", k.ShortDescription)
	}
	if strings.TrimSpace(k.Description) == "" {
		t.Error("no description")
	}
	if !k.SkipUpload {
		t.Error("the manifest goes to krew-index by hand: skip_upload must be true")
	}
}
