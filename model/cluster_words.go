package model

import "strconv"

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
