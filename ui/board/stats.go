package board

import "github.com/hanzoai/driftboard/model"

// measuredCols are the columns whose width follows their content.
var measuredCols = []colID{colApp, colNamespace, colCluster, colTags, colLatest, colPhase, colRollout, colGit, colFlags}

// widthCap bounds what a column may ask for; every column's max is far below.
const widthCap = 256

// colStats keeps, as rows enter and leave the board's view, what the column
// layout needs: each column's widest content and which columns tell two
// rows apart. A change costs O(1), so a frame never measures every row.
type colStats struct {
	hist   [numCols][]int // rows per content width
	widest [numCols]int

	appNS    map[appNS]int  // rows per (app, namespace): 2+ means 2+ clusters
	nsPerApp map[string]int // namespaces per app name
	multiNS  int            // app names seen in 2+ namespaces
	multiCl  int            // (app, namespace) pairs seen in 2+ clusters
}

type appNS struct{ app, ns string }

func (s *colStats) reset() { *s = colStats{} }

func (s *colStats) add(r *model.AppView) { s.count(r, 1) }

func (s *colStats) remove(r *model.AppView) { s.count(r, -1) }

func (s *colStats) count(r *model.AppView, d int) {
	if r == nil {
		return
	}
	if s.appNS == nil {
		s.appNS, s.nsPerApp = map[appNS]int{}, map[string]int{}
	}
	w := rowWidths(r)
	for _, c := range measuredCols {
		s.countWidth(c, min(max(w[c], 0), widthCap), d)
	}
	k := appNS{r.App, r.Namespace}
	before := s.appNS[k]
	after := before + d
	if after == 0 {
		delete(s.appNS, k)
	} else {
		s.appNS[k] = after
	}
	switch {
	case before < 2 && after >= 2:
		s.multiCl++
	case before >= 2 && after < 2:
		s.multiCl--
	}
	if before == 0 || after == 0 { // a namespace came or went for this app
		n := s.nsPerApp[r.App]
		m := n + d
		if m == 0 {
			delete(s.nsPerApp, r.App)
		} else {
			s.nsPerApp[r.App] = m
		}
		switch {
		case n < 2 && m >= 2:
			s.multiNS++
		case n >= 2 && m < 2:
			s.multiNS--
		}
	}
}

func (s *colStats) countWidth(c colID, w, d int) {
	h := s.hist[c]
	if w >= len(h) {
		h = append(h, make([]int, w+1-len(h))...)
		s.hist[c] = h
	}
	h[w] += d
	switch {
	case d > 0 && w > s.widest[c]:
		s.widest[c] = w
	case d < 0 && w == s.widest[c] && h[w] == 0:
		for s.widest[c] > 0 && h[s.widest[c]] == 0 {
			s.widest[c]--
		}
	}
}

// want is what each column's content wants over the view's rows.
func (s *colStats) want() [numCols]int {
	w := s.widest
	w[colSeverity] = 8
	w[colEnv] = 4
	w[colHealth] = 7 // "offline"
	return w
}

// ident reports which columns tell two rows with the same app name apart:
// NAMESPACE when such rows differ in namespace, CLUSTER when they share the
// namespace too and differ only in cluster (a view holds a key once).
func (s *colStats) ident() [numCols]bool {
	var out [numCols]bool
	out[colNamespace] = s.multiNS > 0
	out[colCluster] = s.multiCl > 0
	return out
}
