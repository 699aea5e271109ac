package model

import (
	"fmt"

	"github.com/hanzoai/driftboard/drift"
)

// GitWords is the detail's line about CD: the owning Application, or why
// there is none. It says only what an Application reported.
func GitWords(g GitSync) string {
	switch g.State {
	case GitSynced:
		return "synced with git" + atCommit(g.Revision) + " by " + g.Application
	case GitOutOfSync:
		return "out of sync: git" + atCommit(g.Revision) + " declares something else (" + g.Application + ")"
	case GitNotManaged:
		return "not managed by CD (" + g.Why + ")"
	}
	if !g.KindServed() {
		return "not managed by CD (" + GitWhyNoKind + ")"
	}
	if g.Why == "" {
		return "unknown"
	}
	return "unknown (" + g.Why + ")"
}

// LastSyncWords describes an Application's last sync operation, "" if none.
func LastSyncWords(op *CDOperation) string {
	if op == nil {
		return ""
	}
	s := op.Phase
	if !op.FinishedAt.IsZero() {
		s += " at " + op.FinishedAt.UTC().Format("2006-01-02 15:04:05Z")
	}
	if op.Message != "" {
		s += ": " + op.Message
	}
	return s
}

// GitNextStep is the honest next step for a stale or un-rolled row, from
// what CD reported: a commit still to make, a sync on its way, or a rollout
// git already agrees with. "" when the row needs none or nothing is known.
func GitNextStep(v *AppView) string {
	stale, unrolled := v.HasFlag(drift.DriftStale), v.HasFlag(drift.DriftUnrolled)
	if !stale && !unrolled {
		return ""
	}
	g := v.Git
	switch g.State {
	case GitOutOfSync:
		what := "a different App spec"
		if v.Kind == KindChart && v.DeclaredTag != "" {
			what = v.DeclaredTag // a chart row's declaration is read from the Application itself
		}
		return fmt.Sprintf("git declares %s%s, %s", what, commitParen(g.Revision), pendingWords(g.LastSync))
	case GitSynced:
		if stale {
			if c, ok := CompareSemver(v.DeclaredTag, v.LatestTag); ok && c < 0 {
				return fmt.Sprintf("git still declares %s — commit %s to %s", v.DeclaredTag, v.LatestTag, pathOrRepo(g.Path))
			}
		}
		if unrolled {
			return fmt.Sprintf("git declares %s%s and the cluster has it: the rollout has not finished", v.DeclaredTag, commitParen(g.Revision))
		}
	}
	return ""
}

func pendingWords(op *CDOperation) string {
	if op == nil {
		return "sync pending"
	}
	switch op.Phase {
	case "Running", "Terminating":
		return "sync running"
	case "Failed", "Error":
		return "sync pending (the last sync failed: " + op.Message + ")"
	}
	return "sync pending"
}

func atCommit(rev string) string {
	if rev == "" {
		return ""
	}
	return " at " + rev
}

func commitParen(rev string) string {
	if rev == "" {
		return ""
	}
	return " (commit " + rev + ")"
}

func pathOrRepo(path string) string {
	if path == "" {
		return "git (the Application names no source path)"
	}
	return path
}

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
