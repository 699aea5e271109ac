package imageref

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var sha = "sha256:" + strings.Repeat("ab", 32)

func TestParseImage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ref     string
		want    Image
		wantErr string
	}{
		{"ghcr.io/hanzoai/iam:v1.2.3", Image{Registry: "ghcr.io", Repository: "hanzoai/iam", Tag: "v1.2.3"}, ""},
		{"ghcr.io/hanzoai/iam", Image{Registry: "ghcr.io", Repository: "hanzoai/iam"}, ""},
		{"hanzoai/iam:v1", Image{Repository: "hanzoai/iam", Tag: "v1"}, ""},
		{"nginx", Image{Repository: "nginx"}, ""},
		{"nginx:1.27-alpine", Image{Repository: "nginx", Tag: "1.27-alpine"}, ""},
		{"localhost:5000/x/y:tag", Image{Registry: "localhost:5000", Repository: "x/y", Tag: "tag"}, ""},
		{"localhost/x", Image{Registry: "localhost", Repository: "x"}, ""},
		{"localhost:5000/x", Image{Registry: "localhost:5000", Repository: "x"}, ""},
		{"img@" + sha, Image{Repository: "img", Digest: sha}, ""},
		{"img:tag@" + sha, Image{Repository: "img", Tag: "tag", Digest: sha}, ""},
		{"ghcr.io:443/a/b/c:v1.0.0@" + sha, Image{Registry: "ghcr.io:443", Repository: "a/b/c", Tag: "v1.0.0", Digest: sha}, ""},
		{"[::1]:5000/app:v1", Image{Registry: "[::1]:5000", Repository: "app", Tag: "v1"}, ""},
		{"registry.k8s.io/pause:3.10", Image{Registry: "registry.k8s.io", Repository: "pause", Tag: "3.10"}, ""},
		{"my_reg/x", Image{Repository: "my_reg/x"}, ""}, // no dot or port: Docker Hub path
		{"a.b-c_d/e__f:T_a.g-1", Image{Registry: "a.b-c_d", Repository: "e__f", Tag: "T_a.g-1"}, "invalid character"},
		{"", Image{}, "empty image reference"},
		{"ghcr.io/Hanzoai/iam:v1", Image{}, "path component"},
		{"ghcr.io/hanzoai/iam:", Image{}, "empty tag"},
		{"ghcr.io/hanzoai/iam:v1:v2", Image{}, "invalid character"},
		{"ghcr.io/hanzoai/iam:-v1", Image{}, "invalid character"},
		{"ghcr.io/hanzoai/iam:v1 2", Image{}, "invalid character"},
		{"ghcr.io//iam", Image{}, "empty path component"},
		{"ghcr.io/", Image{}, "no repository path"},
		{"/iam", Image{}, "empty path component"},
		{"ghcr.io/iam/", Image{}, "empty path component"},
		{"ghcr.io/-iam", Image{}, "must start and end"},
		{"img@sha256:abc", Image{}, "needs 64 hex"},
		{"img@md5:" + strings.Repeat("a", 32), Image{}, "unsupported algorithm"},
		{"img@" + strings.ToUpper(sha), Image{}, "unsupported algorithm"},
		{"img@sha256:" + strings.Repeat("A", 64), Image{}, "lowercase hex"},
		{"img@", Image{}, "not algorithm:hex"},
		{"img@sha256:" + strings.Repeat("a", 64) + "@x", Image{}, "needs 64"},
		{"host:port/x", Image{}, "port is not a number"},
		{"host:/x", Image{}, "empty port"},
		{"host:123456/x", Image{}, "port out of range"},
		{"[::1/x", Image{}, "unclosed"},
		{"[::g]/x", Image{}, "IPv6"},
		{":5000/x", Image{}, "empty name"},
		{"ghcr.io/x:" + strings.Repeat("a", 129), Image{}, "longer than 128"},
		{strings.Repeat("a", 5000), Image{}, "longer than 4096"},
		{"héllo", Image{}, "invalid character"},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(tt.ref)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Parse(%q) error = %v, want one containing %q (got %+v)", tt.ref, err, tt.wantErr, got)
				}
				if got != (Image{}) {
					t.Errorf("Parse(%q) returned %+v with an error", tt.ref, got)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.ref, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s", tt.ref, diff)
			}
			if got.String() != tt.ref {
				t.Errorf("String() = %q, want the input back %q", got.String(), tt.ref)
			}
		})
	}
}

func TestSameRepository(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		want bool
	}{
		{"ghcr.io/hanzoai/iam:v1", "ghcr.io/hanzoai/iam:v2", true},
		{"ghcr.io/hanzoai/iam", "docker.io/hanzoai/iam", false},
		{"hanzoai/iam", "docker.io/hanzoai/iam", true},
		{"nginx", "docker.io/library/nginx:1", true},
		{"nginx", "index.docker.io/library/nginx", true},
		{"ghcr.io/hanzoai/iam", "ghcr.io/hanzoai/iam-sidecar", false},
		{"ghcr.io/nginx", "nginx", false},
	}
	for _, tt := range tests {
		a, errA := Parse(tt.a)
		b, errB := Parse(tt.b)
		if errA != nil || errB != nil {
			t.Fatalf("parse: %v %v", errA, errB)
		}
		if got := a.SameRepository(b); got != tt.want {
			t.Errorf("%s vs %s: SameRepository = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func FuzzParseImage(f *testing.F) {
	for _, s := range []string{"ghcr.io/hanzoai/iam:v1.2.3", "hanzoai/iam:v1", "localhost:5000/x/y:tag",
		"img@" + sha, "img:tag@" + sha, "[::1]:5000/a:b", "a//b", ":", "@", "x:y:z/w"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, ref string) {
		im, err := Parse(ref)
		if err != nil {
			return
		}
		if im.Repository == "" {
			t.Fatalf("%q parsed with no repository", ref)
		}
		if im.String() != ref {
			t.Fatalf("%q round-trips to %q", ref, im.String())
		}
		again, err := Parse(im.String())
		if err != nil || again != im {
			t.Fatalf("%q reparsed to %+v, %v", ref, again, err)
		}
		if strings.ContainsAny(im.Tag, "/:@") || strings.Contains(im.Repository, ":") {
			t.Fatalf("%q: separators leaked into fields %+v", ref, im)
		}
	})
}

func BenchmarkParseImage(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_, _ = Parse("ghcr.io/hanzoai/iam:v1.2.3@" + sha)
	}
}
