package store

import (
	"github.com/hanzoai/driftboard/drift"
	"github.com/hanzoai/driftboard/model"
)

// Summary counts rows like the platform server does.
type Summary struct {
	Total   int                         `json:"total"`
	ByDrift map[drift.DriftSeverity]int `json:"byDrift"` // always has ok, yellow and red; shared between snapshots: read only
	// WaitingOnRelease counts rows whose release was not checked (their
	// release flags are withheld): not read yet, rate-limited, failed, not
	// looked up.
	WaitingOnRelease int `json:"waitingOnRelease"`
	// WaitingOnWorkload counts rows with no drift flag known yet because
	// their workload is not listed (the cluster syncs): not counted as ok.
	WaitingOnWorkload int `json:"waitingOnWorkload,omitempty"`
	// UnreadableWorkload counts rows with no drift flag known because this
	// identity may not read their workload: not counted as ok either.
	UnreadableWorkload int `json:"unreadableWorkload,omitempty"`
	// Verdicts counts rows by what they show (AppView.Verdict): the
	// header's counts, watch's summary.
	Verdicts VerdictCounts `json:"verdicts,omitzero"`
}

// VerdictCounts counts rows by mark; the ? rows also by their first unknown
// (the workload pending, unreadable, the release unchecked), as the header
// names them.
type VerdictCounts struct {
	Red        int `json:"red"`
	Yellow     int `json:"yellow"`
	Unknown    int `json:"unknown"`
	OK         int `json:"ok"`
	Pending    int `json:"unknownPending,omitempty"`
	Unreadable int `json:"unknownUnreadable,omitempty"`
	Unchecked  int `json:"unknownRelease,omitempty"`
}

func (c *VerdictCounts) add(v model.Verdict, n int) {
	switch v.Mark {
	case model.MarkRed:
		c.Red += n
	case model.MarkYellow:
		c.Yellow += n
	case model.MarkOK:
		c.OK += n
	default:
		c.Unknown += n
		switch {
		case v.Unknown&model.UnknownWorkloadPending != 0:
			c.Pending += n
		case v.Unknown&model.UnknownWorkloadUnreadable != 0:
			c.Unreadable += n
		default:
			c.Unchecked += n
		}
	}
}

// Of is how many rows show mark m.
func (c VerdictCounts) Of(m model.Mark) int {
	return [...]int{model.MarkOK: c.OK, model.MarkUnknown: c.Unknown, model.MarkYellow: c.Yellow, model.MarkRed: c.Red}[m]
}

// driftBucket is where the design's summary counts a row: by its drift
// severity (an unknown one as ok), or apart when it has no flag and its
// running tag was not observed. What the row shows is its Verdict.
type driftBucket uint8

const (
	bucketOK driftBucket = iota
	bucketYellow
	bucketRed
	bucketPending    // no flag known yet: not ok
	bucketUnreadable // the workload may not be read: not ok either
	driftBuckets
)

func driftBucketOf(v *model.AppView) driftBucket {
	switch {
	case !v.UnknownNotOK():
		return driftBucket(max(v.Drift.Severity.Rank(), 0))
	case v.WaitsOnWorkload():
		return bucketPending
	}
	return bucketUnreadable
}

// Summarize counts rows like the server's summary; for filtered views.
func Summarize(rows []*model.AppView) Summary {
	sum := Summary{Total: len(rows), ByDrift: map[drift.DriftSeverity]int{
		drift.SeverityOK: 0, drift.SeverityYellow: 0, drift.SeverityRed: 0,
	}}
	for _, v := range rows {
		sev := v.Drift.Severity
		if sev.Rank() < 0 {
			sev = drift.SeverityOK
		}
		switch driftBucketOf(v) {
		case bucketPending:
			sum.WaitingOnWorkload++
		case bucketUnreadable:
			sum.UnreadableWorkload++
		default:
			sum.ByDrift[sev]++
		}
		sum.Verdicts.add(v.Verdict(), 1)
		if v.WaitsOnRelease() {
			sum.WaitingOnRelease++
		}
	}
	return sum
}
