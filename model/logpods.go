package model

import "time"

// LogPod is one pod of an App's workload as the log view offers it.
type LogPod struct {
	Name         string
	Containers   []string // in the pod's order
	AppContainer string   // the container running the App's image (else the first)
	Created      time.Time
	Ready        bool
	Restarts     int32  // of all containers
	Waiting      string // a container's waiting reason, e.g. CrashLoopBackOff
}

// Problem is true when the pod is the one an on-call engineer reads first:
// not ready, restarted, or a container waiting on a reason.
func (p LogPod) Problem() bool { return !p.Ready || p.Restarts > 0 || p.Waiting != "" }

// DefaultLogPod is the index of the pod whose logs open first: the newest
// pod with a problem, else the first; -1 without pods.
func DefaultLogPod(pods []LogPod) int {
	best := -1
	for i, p := range pods {
		if p.Problem() && (best < 0 || p.Created.After(pods[best].Created)) {
			best = i
		}
	}
	if best < 0 && len(pods) > 0 {
		best = 0
	}
	return best
}

// LogRequest is one stream of one container's log.
type LogRequest struct {
	Pod, Container string
	Previous       bool  // the crashed (previous) instance
	Follow         bool  // keep streaming new lines
	Tail           int64 // only the last Tail lines; < 0 is all
	MaxLines       int   // the feed keeps at most this many lines waiting
}
