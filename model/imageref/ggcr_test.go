package imageref

import (
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
)

// FuzzImageAgainstGGCR is a differential fuzz: the hand-written Parse
// (it runs for every container on every event) against
// go-containerregistry's name parser. It may refuse more (it follows the
// distribution grammar, where go-containerregistry only checks characters:
// "a//b"), never less, and where both accept they find the same registry,
// repository, tag and digest. Only the test imports go-containerregistry;
// imageref itself depends on go-digest alone.
func FuzzImageAgainstGGCR(f *testing.F) {
	for _, s := range []string{"ghcr.io/hanzoai/iam:v1.2.3", "hanzoai/iam:v1", "localhost:5000/x/y:tag", "iam",
		"img@" + sha, "img:tag@" + sha, "[::1]:5000/a:b", "a//b", ":", "@", "x:y:z/w", "UPPER/x", "a/b:" + strings.Repeat("t", 129)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, ref string) {
		im, err := Parse(ref)
		ref2, gerr := name.ParseReference(ref)
		if err == nil && gerr != nil && im.Digest != "" && !strings.HasPrefix(im.Digest, "sha256:") {
			return // sha384/sha512 are OCI digests; go-containerregistry's name takes sha256 only
		}
		if err == nil && gerr != nil {
			t.Fatalf("%q: Parse accepts %+v, go-containerregistry refuses: %v", ref, im, gerr)
		}
		if err != nil || gerr != nil {
			return
		}
		h, p := im.canonical()
		if h == "docker.io" {
			h = name.DefaultRegistry
		}
		if got := ref2.Context().RegistryStr(); got != h {
			t.Fatalf("%q: registry %q, go-containerregistry %q", ref, h, got)
		}
		if got := ref2.Context().RepositoryStr(); got != p {
			t.Fatalf("%q: repository %q, go-containerregistry %q", ref, p, got)
		}
		switch r := ref2.(type) {
		case name.Tag:
			if im.Digest != "" || r.TagStr() != im.RunTag() {
				t.Fatalf("%q: tag %q digest %q, go-containerregistry tag %q", ref, im.Tag, im.Digest, r.TagStr())
			}
		case name.Digest:
			if r.DigestStr() != im.Digest {
				t.Fatalf("%q: digest %q, go-containerregistry %q", ref, im.Digest, r.DigestStr())
			}
		}
	})
}
