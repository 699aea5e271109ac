package ui

import "strings"

// problemReasons turn model.AppView.Problems sentences into the board's
// short reason after "!". The sentences are model's; the first that names a
// known case wins, so a new kind of problem still shows as "! problem".
var problemReasons = []struct{ contains, reason string }{
	{"not found", "no workload"},
	{"legacy workload", "legacy"},
	{"makes no workload", "kind"},
	{"expects a", "kind"},
	{"No image declared", "no image"},
	{"No tag declared", "no tag"},
	{"alformed", "malformed"}, // "Malformed field", "…: malformed image reference"
}

// problemCell is the FLAGS column's marker for a row with problems, "" for
// none: the drift contract has no flag for them, so this keeps them visible.
func problemCell(problems []string) string {
	if len(problems) == 0 {
		return ""
	}
	for _, pr := range problemReasons {
		if strings.Contains(problems[0], pr.contains) {
			return "! " + pr.reason
		}
	}
	return "! problem"
}
