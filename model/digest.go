package model

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hanzoai/driftboard/model/imageref"
)

// DigestCheck compares the digests pods run (containerStatuses[].imageID)
// with the digest the declared tag points at in the registry now: the drift a
// tag comparison cannot see (a floating tag moved, or pods under one tag run
// different images).
type DigestCheck struct {
	TagDigest string   `json:"tagDigest,omitempty"`
	Running   []string `json:"running,omitempty"` // distinct manifest digests, sorted
	Unknown   int      `json:"unknown,omitempty"` // imageIDs without a registry digest
	// Tag is the tag TagDigest belongs to (the declared one) and RunningTag
	// the tag the pods run, where known; Rolling: a rollout is under way, so
	// pods of two templates may run different tags. AppView.DigestCheck
	// fills them, so that digests are compared like with like.
	Tag, RunningTag string `json:"-"`
	Rolling         bool   `json:"-"`
}

// DigestCheck compares the digests running (read from the row's pods)
// with the declared tag's, knowing which tag the pods run.
func (v *AppView) DigestCheck(running []string) DigestCheck {
	c := CompareDigests(v.Release.TagDigest, running)
	c.Tag, c.RunningTag = v.DeclaredTag, v.RunningTag
	switch v.Workload.Rollout {
	case RolloutProgressing, RolloutStuck, RolloutPaused:
		c.Rolling = true
	}
	return c
}

// OtherTag reports pods known to run another tag than the one whose digest
// TagDigest is: their digests differ from it as their tags do, which says
// nothing about the registry.
func (c DigestCheck) OtherTag() bool {
	return c.Tag != "" && c.RunningTag != "" && c.RunningTag != c.Tag
}

// comparable: the pods are not known to run another tag than TagDigest's.
func (c DigestCheck) comparable() bool { return !c.OtherTag() && !c.Rolling }

// NotCompared says why differing digests were not compared ("" when they
// were, or agree): the pods run another tag, or may while a rollout is under way.
func (c DigestCheck) NotCompared() string {
	agree := len(c.Running) == 1 && c.Running[0] == c.TagDigest
	switch {
	case c.TagDigest == "" || len(c.Running) == 0 || agree:
		return ""
	case c.OtherTag():
		return fmt.Sprintf("digests not compared: the tag digest is the declared %s's, the pods run %s", c.Tag, c.RunningTag)
	case c.Rolling:
		return "digests not compared while a rollout is under way: pods of the old template may run another tag"
	}
	return ""
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
	if !ok || imageref.CheckDigest(d) != nil {
		return ""
	}
	return d
}

// Mixed reports pods running more than one digest.
func (c DigestCheck) Mixed() bool { return len(c.Running) > 1 }

// Differs reports a running digest other than the tag's current one.
func (c DigestCheck) Differs() bool {
	if c.TagDigest == "" || !c.comparable() {
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
			strings.Join(shortDigests(c.Running), ", "), imageref.ShortDigest(c.TagDigest)))
	} else if c.Mixed() && !c.Rolling { // one tag, as far as the row says
		parts = append(parts, fmt.Sprintf("pods run %d different digests under one tag (%s)",
			len(c.Running), strings.Join(shortDigests(c.Running), ", ")))
	}
	return strings.Join(parts, "; ")
}

func shortDigests(ds []string) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = imageref.ShortDigest(d)
	}
	return out
}
