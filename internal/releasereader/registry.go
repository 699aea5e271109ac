package releasereader

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/remote/transport"

	"github.com/hanzoai/driftboard/drift"
)

// registryOptions are the go-containerregistry options for one request:
// docker config credentials (anonymous when there are none), the injected
// transport and the context.
func (r *Reader) registryOptions(ctx context.Context) []remote.Option {
	return []remote.Option{
		remote.WithContext(ctx),
		remote.WithAuthFromKeychain(r.keychain),
		remote.WithTransport(r.regTransport),
		remote.WithUserAgent("driftboard"),
	}
}

func (r *Reader) nameOptions(image string) []name.Option {
	host, _, _ := strings.Cut(image, "/")
	if slices.ContainsFunc(r.opts.InsecureRegistries, func(h string) bool { return strings.EqualFold(h, host) }) {
		return []name.Option{name.Insecure}
	}
	return nil
}

// fetchDigest reads the digest the tag points at now. HEAD first (it does not
// count as a pull on Docker Hub); a registry that sends no digest on HEAD
// gets a GET of the manifest.
func (r *Reader) fetchDigest(ctx context.Context, t target) answer {
	a := answer{CheckedAt: r.now()}
	ref, err := name.NewTag(t.image+":"+t.tag, r.nameOptions(t.image)...)
	if err != nil {
		a.Result, a.Err, a.ErrAt = resultError, "registry: "+err.Error(), a.CheckedAt
		return a
	}
	desc, err := remote.Head(ref, r.registryOptions(ctx)...)
	if err != nil && !isNotFound(err) && ctx.Err() == nil {
		if got, gerr := remote.Get(ref, r.registryOptions(ctx)...); gerr == nil {
			desc, err = &got.Descriptor, nil
		}
	}
	switch {
	case err == nil:
		a.Result, a.Digest = resultFound, desc.Digest.String()
	case isNotFound(err):
		a.Result = resultNone
	default:
		a.Result, a.Err, a.ErrAt = resultError, registryError(err), a.CheckedAt
	}
	return a
}

// fetchRegistryLatest finds the highest strict vX.Y.Z tag in the repository,
// the latest-tag source for repos without GitHub releases.
func (r *Reader) fetchRegistryLatest(ctx context.Context, t target) answer {
	a := answer{CheckedAt: r.now()}
	repo, err := name.NewRepository(t.image, r.nameOptions(t.image)...)
	if err != nil {
		a.Result, a.Err, a.ErrAt = resultError, "registry: "+err.Error(), a.CheckedAt
		return a
	}
	tags, err := remote.List(repo, r.registryOptions(ctx)...)
	switch {
	case err == nil:
		if best := HighestSemver(tags); best != "" {
			a.Result, a.Tag = resultFound, best
		} else {
			a.Result = resultNone
		}
	case isNotFound(err):
		a.Result = resultNone
	default:
		a.Result, a.Err, a.ErrAt = resultError, registryError(err), a.CheckedAt
	}
	return a
}

func isNotFound(err error) bool {
	var terr *transport.Error
	return errors.As(err, &terr) && terr.StatusCode == http.StatusNotFound
}

// registryError is the row's words for a failed registry read.
func registryError(err error) string {
	var na *NotAllowedError
	if errors.As(err, &na) {
		return na.Error() // refused here, nothing was sent
	}
	var terr *transport.Error
	if errors.As(err, &terr) {
		if terr.StatusCode == http.StatusUnauthorized || terr.StatusCode == http.StatusForbidden {
			return fmt.Sprintf("registry: access denied (%d): docker login to the registry", terr.StatusCode)
		}
		return fmt.Sprintf("registry: registry answered %d", terr.StatusCode)
	}
	return "registry: " + err.Error()
}

// HighestSemver returns the highest strict vX.Y.Z tag, "" when there is none.
func HighestSemver(tags []string) string {
	best, bestV := "", [3]int{-1, -1, -1}
	for _, t := range tags {
		v, ok := semver(t)
		if ok && slices.Compare(v[:], bestV[:]) > 0 {
			best, bestV = t, v
		}
	}
	return best
}

func semver(tag string) ([3]int, bool) {
	var v [3]int
	if !drift.IsSemverTag(tag) {
		return v, false
	}
	for i, p := range strings.SplitN(tag[1:], ".", 3) {
		n, err := strconv.Atoi(p)
		if err != nil {
			return v, false // more digits than an int holds
		}
		v[i] = n
	}
	return v, true
}

// keychainOrDefault is authn.DefaultKeychain unless a test injects another.
func keychainOrDefault(k authn.Keychain) authn.Keychain {
	if k == nil {
		return authn.DefaultKeychain
	}
	return k
}
