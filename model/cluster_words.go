package model

import (
	"strconv"
	"time"
)

// SyncingWords is a syncing cluster in a few words, for the header and for
// the commands that wait on it: how many Apps arrived, and of how many when
// the server said ("syncing 4200/10000"). While a call of its first sync
// fails and is retried, it says so with the last error seen, and a total not
// known is "?": the count is what arrived, not progress toward an end
// ("syncing 0/? — retrying replicasets in hanzo: …"). The words
// are raw: callers sanitise them for the terminal.
func (c ClusterState) SyncingWords() string {
	listed := strconv.Itoa(c.Listed)
	if c.Reason != "" {
		total := "?"
		if c.Expected > 0 {
			total = strconv.Itoa(c.Expected)
		}
		return "syncing " + listed + "/" + total + " — retrying " + c.Reason
	}
	switch {
	case c.Expected > 0:
		return "syncing " + listed + "/" + strconv.Itoa(c.Expected)
	case c.Listed > 0:
		return "syncing " + listed
	}
	return "syncing"
}

// FailedWords is a failed cluster in a few words: while its setup is
// retried, "unreachable — retrying (attempt 3, next in 4s): <last error>"
// ("failed — retrying …" when the server answered but refused), else
// "failed: <reason>". Raw: callers sanitise them for the terminal.
func (c ClusterState) FailedWords(now time.Time) string {
	reason := c.Reason
	if reason == "" {
		reason = "-"
	}
	if c.Attempt == 0 {
		return "failed: " + reason
	}
	what := "failed"
	if c.Unreachable {
		what = "unreachable"
	}
	return what + " — " + c.RetryWords(now) + ": " + reason
}

// RetryWords: "retrying (attempt 3, next in 4s)", the next "now" once due.
func (c ClusterState) RetryWords(now time.Time) string {
	next := "next now"
	if d := c.RetryAt.Sub(now); d > 0 {
		next = "next in " + Seconds(d)
	}
	return "retrying (attempt " + strconv.Itoa(c.Attempt) + ", " + next + ")"
}

// Seconds writes a short wait rounded up to whole seconds ("4s", "1m5s").
func Seconds(d time.Duration) string {
	s := int((d + time.Second - 1) / time.Second)
	if s < 60 {
		return strconv.Itoa(s) + "s"
	}
	if s%60 == 0 {
		return strconv.Itoa(s/60) + "m"
	}
	return strconv.Itoa(s/60) + "m" + strconv.Itoa(s%60) + "s"
}
