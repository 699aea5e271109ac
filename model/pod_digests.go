package model

import "strconv"

// PodDigests is one read of the registry digests a workload's pods run: how
// many pods it found, how many of them reported no registry digest for the
// App's container, and the distinct digests the others run. It tells "no
// pods" from "pods without digests", which an empty list alone cannot.
type PodDigests struct {
	Pods     int      `json:"pods"`                    // the workload's pods, running or waiting to (finished ones left out)
	NoDigest int      `json:"withoutDigest,omitempty"` // of them, those reporting no registry digest (not pulled yet, a local image)
	Digests  []string `json:"digests,omitempty"`       // distinct, sorted
}

// Note says what the read saw besides the digests; "" when every pod
// reported one.
func (p PodDigests) Note() string {
	pods := strconv.Itoa(p.Pods) + " pods"
	if p.Pods == 1 {
		pods = "1 pod"
	}
	switch {
	case p.Pods == 0:
		return "no pods (none running or pending)"
	case p.NoDigest >= p.Pods && p.Pods == 1:
		return "1 pod, which reports no registry digest (not pulled yet, or a local image)"
	case p.NoDigest >= p.Pods:
		return pods + ", none reports a registry digest (not pulled yet, or a local image)"
	case p.NoDigest == 1:
		return "1 of " + pods + " reports no registry digest (not pulled yet, or a local image)"
	case p.NoDigest > 0:
		return strconv.Itoa(p.NoDigest) + " of " + pods + " report no registry digest (not pulled yet, or a local image)"
	}
	return ""
}
