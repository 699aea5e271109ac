package model

// GitCell is a row's git state in one table cell (list's GIT column, watch's
// text): the state, and for unknown why in a word, so a table never shows
// "unknown" without its reason nor a bare "-" for a state not observed.
func GitCell(g GitSync) string {
	unknown := GitStateWords.Of(GitUnknown).Text
	switch g.State {
	case GitSynced, GitOutOfSync, GitNotManaged:
		return GitStateWords.Of(g.State).Text
	case "": // never looked up: no CD facts at all
		return unknown + "(not-looked-up)"
	}
	return unknown + "(" + gitWhyWord(g.Why) + ")"
}

// GitCellAt is GitCell with the commit CD compared at, for a synced or
// out-of-sync row ("out-of-sync@abc1234"): list -o wide and watch's text.
func GitCellAt(g GitSync) string {
	if (g.State == GitSynced || g.State == GitOutOfSync) && g.Revision != "" {
		return GitCell(g) + "@" + g.Revision
	}
	return GitCell(g)
}

// gitWhyWord is a GitWhy reason as one word for a table cell.
func gitWhyWord(why string) string {
	switch why {
	case GitWhyNoKind:
		return "no-cd" // no Application kind served: Hanzo CD / Argo CD not installed
	case GitWhyForbidden:
		return "forbidden"
	case GitWhyNotSynced:
		return "not-synced"
	case GitWhyUndiscovered:
		return "undiscovered"
	case GitWhyNotCounted:
		return "not-kept"
	case gitWhyNoStatus, gitWhyNoStatusChart:
		return "no-status"
	}
	return "see-get" // a reason without a short word: `get` prints it in full
}
