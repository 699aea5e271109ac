package kube

import (
	"testing"

	"github.com/hanzoai/driftboard/model"
)

// lookups counts the release lookups a row asks for.
type lookups struct{ n int }

func (l *lookups) Lookup(string, string) model.Release {
	l.n++
	return model.Release{State: model.ReleaseFound}
}
func (l *lookups) Changed() <-chan struct{} { return nil }

// An App whose image reference is malformed has an image: its release is
// not looked up, and says so, never "no image to check".
func TestReleaseOfAMalformedImageSaysWhy(t *testing.T) {
	l := &lookups{}
	f := &Fleet{opts: FleetOptions{Releases: l}}
	for _, c := range []struct{ repo, want string }{
		{"ghcr.io/hanzoai/re\x1b[31mpo", "not looked up: the image reference is malformed"},
		{"", "no image to check"},
	} {
		got := f.release(model.AppObject{ImageRepository: c.repo, ImageTag: "v1.0.0"})
		if got.State != model.ReleaseOff || got.Detail != c.want {
			t.Errorf("image %q: release %s (%s), want off (%s)", c.repo, got.State, got.Detail, c.want)
		}
	}
	if l.n != 0 {
		t.Errorf("%d lookups for images that name no repository", l.n)
	}
	if got := f.release(model.AppObject{ImageRepository: "ghcr.io/hanzoai/iam", ImageTag: "v1.0.0"}); got.State != model.ReleaseFound || l.n != 1 {
		t.Errorf("a good image: %s after %d lookups, want found after 1", got.State, l.n)
	}
}
