package board

import (
	"sort"

	"github.com/hanzoai/driftboard/ui/format"
)

// colID names a board column; the constants are in display order.
type colID int

const (
	colSeverity colID = iota
	colApp
	colEnv
	colNamespace
	colCluster
	colTags
	colLatest
	colHealth
	colPhase
	colRollout
	colGit
	colPromote
	colFlags
)

// column is a column's title and how it shrinks: columns with a higher prio
// number are dropped first on narrow terminals. NAMESPACE and CLUSTER rank
// low only while they tell no two rows apart (see identifyingPrio).
type column struct {
	id       colID
	title    string
	min, max int
	prio     int
}

var columns = []column{
	{colSeverity, "DRIFT", 8, 8, 0},
	{colApp, "APP", 10, 32, 0},
	{colEnv, "ENV", 4, 4, 22}, // mostly said by the namespace (hanzo-dev…): yields to HEALTH and FLAGS
	{colNamespace, "NAMESPACE", 10, 20, 40},
	{colCluster, "CLUSTER", 8, 16, 40},
	{colTags, "DECLARED→RUN", 15, 27, 10}, // 15: "v1.22.7→v1.22.5"; cut, the declared tag goes first (fitTags)
	{colLatest, "LATEST", 8, 12, 30},
	{colHealth, "HEALTH", 7, 7, 20},
	{colPhase, "PHASE", 8, 9, 50},
	{colRollout, "ROLLOUT", 5, 16, 30},
	// GIT is decorative beside the drift (the detail says it in full): it
	// yields to the identifying columns, and is absent where no cluster
	// serves an Application kind (its content width is then 0).
	{colGit, "GIT", 3, 3, 35},
	// PROMOTE shows only while a promotion is kept for some row (its
	// content width is then more than 0); it yields to the drift's columns
	// (the detail says a promotion in full).
	{colPromote, "PROMOTE", 7, 16, 32},
	{colFlags, "FLAGS", 8, 17, 20},
}

// identifyingPrio is the rank of a column that tells two of the board's rows
// apart (two "sql" apps in different namespaces or clusters): right after
// the drift itself (the mark, the app, its tags), before ENV, HEALTH and
// FLAGS, as k9s never hides NAMESPACE in its all-namespaces view: two rows
// that read the same are worse than a column less, and the detail says the
// rest. DRIFT, APP, DECLARED→RUN, NAMESPACE and CLUSTER fit in 60 columns.
const identifyingPrio = 15

// gutterWidth is the selection marker column ("› ").
const gutterWidth = 2

// placed is a column with the width it got.
type placed struct {
	column
	width int
}

// numCols is the number of column ids.
const numCols = int(colFlags) + 1

// layoutColumns picks the columns that fit width (most important first, a
// column in ident ranked at identifyingPrio), then widens each towards the
// width its content wants (want, by column id) in its own priority order, so
// an identifying column is shown but not widened before the drift's; what is
// left goes to the app column. The cluster column only appears when the
// board spans more than one cluster.
func layoutColumns(width int, multiCluster bool, want *[numCols]int, ident *[numCols]bool) []placed {
	avail := width - gutterWidth
	cand := make([]column, 0, len(columns))
	for _, c := range columns {
		if c.id == colCluster && !multiCluster {
			continue
		}
		if (c.id == colGit || c.id == colPromote) && want[c.id] == 0 {
			continue
		}
		cand = append(cand, c)
	}
	rank := func(c column) int {
		if ident[c.id] {
			return min(c.prio, identifyingPrio)
		}
		return c.prio
	}
	byRank := append([]column(nil), cand...)
	sort.SliceStable(byRank, func(i, j int) bool { return rank(byRank[i]) < rank(byRank[j]) })
	byPrio := append([]column(nil), cand...)
	sort.SliceStable(byPrio, func(i, j int) bool { return byPrio[i].prio < byPrio[j].prio })

	var chosen [numCols]int // 0 = not shown
	used := 0
	for _, c := range byRank {
		need := c.min
		if used > 0 {
			need++ // separator
		}
		if used+need > avail {
			continue
		}
		chosen[c.id] = c.min
		used += need
	}
	extra := avail - used
	grow := func(c column, to int) {
		if chosen[c.id] == 0 || extra <= 0 {
			return
		}
		g := max(0, min(min(to, c.max)-chosen[c.id], extra))
		chosen[c.id] += g
		extra -= g
	}
	for _, c := range byPrio {
		grow(c, max(want[c.id], format.TextWidth(c.title)))
	}
	for _, c := range byPrio {
		if c.id == colApp {
			grow(c, c.max)
		}
	}
	for _, c := range byPrio {
		grow(c, c.max)
	}
	out := make([]placed, 0, len(cand))
	for _, c := range cand {
		if w := chosen[c.id]; w > 0 {
			out = append(out, placed{column: c, width: w})
		}
	}
	return out
}
