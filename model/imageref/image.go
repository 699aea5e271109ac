// Package imageref reads container image references by hand (it runs for
// every container on every event): their registry, repository, tag and
// digest, the tag a reference runs, and the form a person may copy.
package imageref

import (
	_ "crypto/sha256" // registers sha256 for go-digest
	_ "crypto/sha512" // and sha384, sha512
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/opencontainers/go-digest"
)

// Image is a parsed container image reference such as
// ghcr.io/hanzoai/iam:v1.2.3 or localhost:5000/x/y:tag@sha256:….
type Image struct {
	Registry   string `json:"registry,omitempty"` // host[:port]; "" means Docker Hub
	Repository string `json:"repository"`         // path without the host: hanzoai/iam
	Tag        string `json:"tag,omitempty"`
	Digest     string `json:"digest,omitempty"` // algorithm:hex
}

// RunTag is the tag an image reference runs: its tag; "latest" when it has
// neither tag nor digest (what the runtime pulls); for a digest-only
// reference "@" and the short digest (pinned, not a floating tag).
func (im Image) RunTag() string {
	switch {
	case im.Tag != "":
		return im.Tag
	case im.Digest != "":
		return "@" + ShortDigest(im.Digest)
	}
	return "latest"
}

// PinnedByDigest reports whether a RunTag is a digest: fixed content, so
// neither floating nor comparable with a declared tag.
func PinnedByDigest(runTag string) bool { return strings.HasPrefix(runTag, "@") }

// Name is the registry host and repository, without tag or digest.
func (im Image) Name() string {
	if im.Registry == "" {
		return im.Repository
	}
	return im.Registry + "/" + im.Repository
}

// String renders the reference back in canonical order.
func (im Image) String() string {
	s := im.Name()
	if im.Tag != "" {
		s += ":" + im.Tag
	}
	if im.Digest != "" {
		s += "@" + im.Digest
	}
	return s
}

// SameRepository reports whether two images name the same repository, treating
// Docker Hub's implicit host and "library/" prefix as equal to the explicit ones.
func (im Image) SameRepository(other Image) bool {
	h1, p1 := im.canonical()
	h2, p2 := other.canonical()
	return h1 == h2 && p1 == p2
}

func (im Image) canonical() (host, path string) {
	host, path = im.Registry, im.Repository
	switch host {
	case "", "docker.io", "index.docker.io", "registry-1.docker.io":
		host = "docker.io"
		if !strings.Contains(path, "/") {
			path = "library/" + path
		}
	}
	return host, path
}

// Parse parses an image reference by hand (it runs for every container on
// every event): [host[:port]/]path[:tag][@algorithm:hex].
func Parse(ref string) (Image, error) {
	var im Image
	if ref == "" {
		return im, errors.New("empty image reference")
	}
	if len(ref) > 4096 {
		return im, errors.New("image reference longer than 4096 characters")
	}
	rest := ref
	if at := strings.IndexByte(rest, '@'); at >= 0 {
		im.Digest = rest[at+1:]
		rest = rest[:at]
		if err := CheckDigest(im.Digest); err != nil {
			return Image{}, fmt.Errorf("image \"%s\": %w", ref, err)
		}
	}
	if colon := strings.LastIndexByte(rest, ':'); colon > strings.LastIndexByte(rest, '/') {
		im.Tag = rest[colon+1:]
		rest = rest[:colon]
		if err := CheckTag(im.Tag); err != nil {
			return Image{}, fmt.Errorf("image \"%s\": %w", ref, err)
		}
	}
	if slash := strings.IndexByte(rest, '/'); slash >= 0 {
		if first := rest[:slash]; strings.ContainsAny(first, ".:[") || first == "localhost" {
			im.Registry, rest = first, rest[slash+1:]
			if err := checkHost(im.Registry); err != nil {
				return Image{}, fmt.Errorf("image \"%s\": %w", ref, err)
			}
		}
	}
	im.Repository = rest
	if err := checkPath(rest); err != nil {
		return Image{}, fmt.Errorf("image \"%s\": %w", ref, err)
	}
	return im, nil
}

func checkPath(path string) error {
	if path == "" {
		return errors.New("no repository path")
	}
	if len(path) > 255 { // the distribution spec's limit, which registries enforce
		return errors.New("repository path longer than 255 characters")
	}
	for comp := range strings.SplitSeq(path, "/") {
		if comp == "" {
			return errors.New("empty path component")
		}
		if !isLowerAlnum(comp[0]) || !isLowerAlnum(comp[len(comp)-1]) {
			return fmt.Errorf("path component \"%s\" must start and end with a lowercase letter or digit", comp)
		}
		for i := 0; i < len(comp); i++ {
			c := comp[i]
			if !isLowerAlnum(c) && c != '.' && c != '_' && c != '-' {
				return fmt.Errorf("path component \"%s\" has invalid character '%s'", comp, string([]byte{c}))
			}
		}
	}
	return nil
}

// CheckTag accepts a tag as the distribution grammar does (at most 128
// word characters, dots and dashes, not starting with either).
func CheckTag(tag string) error {
	if tag == "" {
		return errors.New("empty tag after ':'")
	}
	if len(tag) > 128 {
		return errors.New("tag longer than 128 characters")
	}
	for i := 0; i < len(tag); i++ {
		c := tag[i]
		ok := isLowerAlnum(c) || (c >= 'A' && c <= 'Z') || c == '_' || (i > 0 && (c == '.' || c == '-'))
		if !ok {
			return fmt.Errorf("tag \"%s\" has invalid character '%s'", tag, string([]byte{c}))
		}
	}
	return nil
}

func checkHost(host string) error {
	name, port := host, ""
	if strings.HasPrefix(host, "[") { // IPv6 literal
		end := strings.IndexByte(host, ']')
		if end < 0 {
			return fmt.Errorf("registry host \"%s\": unclosed '['", host)
		}
		name, port = host[1:end], strings.TrimPrefix(host[end+1:], ":")
		if host[end+1:] != "" && !strings.HasPrefix(host[end+1:], ":") {
			return fmt.Errorf("registry host \"%s\": junk after ']'", host)
		}
		if ip := net.ParseIP(name); ip == nil || !strings.Contains(name, ":") {
			return fmt.Errorf("registry host \"%s\": invalid IPv6 literal", host)
		}
		if host[end+1:] == ":" {
			return fmt.Errorf("registry host \"%s\": empty port", host)
		}
	} else {
		if c := strings.IndexByte(host, ':'); c >= 0 {
			name, port = host[:c], host[c+1:]
			if port == "" {
				return fmt.Errorf("registry host \"%s\": empty port", host)
			}
		}
		if name == "" {
			return fmt.Errorf("registry host \"%s\": empty name", host)
		}
		for i := 0; i < len(name); i++ {
			c := name[i]
			if !isLowerAlnum(c) && !(c >= 'A' && c <= 'Z') && c != '.' && c != '-' {
				return fmt.Errorf("registry host \"%s\" has invalid character '%s'", host, string([]byte{c}))
			}
		}
	}
	if len(port) > 5 {
		return fmt.Errorf("registry host \"%s\": port out of range", host)
	}
	for i := 0; i < len(port); i++ {
		if port[i] < '0' || port[i] > '9' {
			return fmt.Errorf("registry host \"%s\": port is not a number", host)
		}
	}
	return nil
}

// CheckDigest accepts an OCI digest (sha256, sha384 or sha512, lowercase
// hex of the right length) with opencontainers/go-digest, the registries'
// own library, and says what is wrong by its typed errors.
func CheckDigest(d string) error {
	err := digest.Digest(d).Validate()
	if err == nil {
		return nil
	}
	algo, hex, ok := strings.Cut(d, ":")
	a := digest.Algorithm(algo)
	switch {
	case !ok || algo == "" || hex == "":
		return fmt.Errorf("digest \"%s\" is not algorithm:hex", d)
	case !a.Available():
		return fmt.Errorf("digest \"%s\": unsupported algorithm \"%s\" (sha256, sha384 or sha512): %w", d, algo, err)
	case errors.Is(err, digest.ErrDigestInvalidLength):
		return fmt.Errorf("digest \"%s\": %s needs %d hex characters, got %d: %w", d, algo, a.Size()*2, len(hex), err)
	}
	return fmt.Errorf("digest \"%s\": not lowercase hex: %w", d, err)
}

func isLowerAlnum(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') }

// ShortDigest keeps algorithm and 12 hex characters, as docker prints IDs.
func ShortDigest(d string) string {
	algo, hex, ok := strings.Cut(d, ":")
	if !ok || len(hex) <= 12 {
		return d
	}
	return algo + ":" + hex[:12]
}
