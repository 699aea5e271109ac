package board

import "github.com/hanzoai/driftboard/model"

// problemReason is the board's short word for a kind of problem; a kind
// this board does not know yet still shows as "problem".
func problemReason(k model.ProblemKind) string {
	switch k {
	case model.ProblemNoWorkload:
		return "no workload"
	case model.ProblemLegacyWorkload:
		return "legacy"
	case model.ProblemWrongKind:
		return "kind"
	case model.ProblemNoImage:
		return "no image"
	case model.ProblemNoTag:
		return "no tag"
	case model.ProblemMalformed:
		return "malformed"
	case model.ProblemUnknownRole:
		return "unknown role"
	case model.ProblemUpgradeFailed:
		return "upgrade failed"
	case model.ProblemUnreadable:
		return "unreadable"
	case model.ProblemPodsFailing:
		return "pods failing"
	}
	return "problem"
}

// problemCell is the FLAGS column's marker for a row with problems, "" for
// none: the drift contract has no flag for them, so this keeps them visible.
func problemCell(problems []model.Problem) string {
	if len(problems) == 0 {
		return ""
	}
	for _, p := range problems { // failing pods are named: "! CrashLoopBackOff: api-7d9f-x2 (+2)"
		if l := p.Label(); l != "" {
			return "! " + l
		}
	}
	return "! " + problemReason(problems[0].Kind)
}
