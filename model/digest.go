package model

import (
	"fmt"
	"slices"
	"strings"
)

// DigestCheck compares the digests pods run (containerStatuses[].imageID)
// with the digest the declared tag points at in the registry now: the drift a
// tag comparison cannot see (a floating tag moved, or pods under one tag run
// different images).
type DigestCheck struct {
	TagDigest string   `json:"tagDigest,omitempty"`
	Running   []string `json:"running,omitempty"` // distinct manifest digests, sorted
	Unknown   int      `json:"unknown,omitempty"` // imageIDs without a registry digest
}

// CheckDigests builds a DigestCheck. imageIDs may be in any form the kubelet
// reports: "ghcr.io/x/y@sha256:…", "docker-pullable://x/y@sha256:…", or a
// bare "sha256:…" / "docker://sha256:…". The bare forms are local image
// (config) IDs, not registry digests, so they are counted as Unknown rather
// than compared: comparing them would report drift that is not there.
func CheckDigests(tagDigest string, imageIDs []string) DigestCheck {
	digests := make([]string, 0, len(imageIDs))
	unknown := 0
	for _, id := range imageIDs {
		if d := RepoDigest(id); d != "" {
			digests = append(digests, d)
		} else {
			unknown++
		}
	}
	c := CompareDigests(tagDigest, digests)
	c.Unknown = unknown
	return c
}

// CompareDigests is CheckDigests for digests already known to be registry
// digests ("sha256:…"), e.g. what the kube layer reads from running pods.
func CompareDigests(tagDigest string, digests []string) DigestCheck {
	c := DigestCheck{TagDigest: tagDigest}
	for _, d := range digests {
		if !slices.Contains(c.Running, d) {
			c.Running = append(c.Running, d)
		}
	}
	slices.Sort(c.Running)
	return c
}

// RepoDigest returns the algorithm:hex registry digest in an imageID or image
// reference ("" when it names none).
func RepoDigest(imageID string) string {
	_, d, ok := strings.Cut(imageID, "@")
	if !ok || checkDigest(d) != nil {
		return ""
	}
	return d
}

// Mixed reports pods running more than one digest.
func (c DigestCheck) Mixed() bool { return len(c.Running) > 1 }

// Differs reports a running digest other than the tag's current one.
func (c DigestCheck) Differs() bool {
	if c.TagDigest == "" {
		return false
	}
	for _, d := range c.Running {
		if d != c.TagDigest {
			return true
		}
	}
	return false
}

// Note is the row detail's sentence, "" when nothing is off.
func (c DigestCheck) Note() string {
	var parts []string
	if c.Differs() {
		parts = append(parts, fmt.Sprintf("running digest ≠ tag digest (running %s, tag %s)",
			strings.Join(shortDigests(c.Running), ", "), shortDigest(c.TagDigest)))
	} else if c.Mixed() {
		parts = append(parts, fmt.Sprintf("pods run %d different digests under one tag (%s)",
			len(c.Running), strings.Join(shortDigests(c.Running), ", ")))
	}
	return strings.Join(parts, "; ")
}

func shortDigests(ds []string) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = shortDigest(d)
	}
	return out
}

// shortDigest keeps algorithm and 12 hex characters, as docker prints IDs.
func shortDigest(d string) string {
	algo, hex, ok := strings.Cut(d, ":")
	if !ok || len(hex) <= 12 {
		return d
	}
	return algo + ":" + hex[:12]
}
