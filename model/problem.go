package model

// ProblemKind names what is wrong with a row beyond drift, so that renderers
// branch on the kind and never on the words of Problem.Text.
type ProblemKind string

const (
	// ProblemMalformed: a field of the App, its image or its workload's image cannot be read.
	ProblemMalformed ProblemKind = "malformed"
	// ProblemNoImage: spec.image.repository is empty on a role that needs one.
	ProblemNoImage ProblemKind = "no-image"
	// ProblemNoTag: spec.image.tag is empty.
	ProblemNoTag ProblemKind = "no-tag"
	// ProblemTagInRepository: spec.image.repository carries a tag or digest.
	ProblemTagInRepository ProblemKind = "tag-in-repository"
	// ProblemNoWorkload: the role makes a workload and none was found.
	ProblemNoWorkload ProblemKind = "no-workload"
	// ProblemLegacyWorkload: the workload exists but the App does not own it.
	ProblemLegacyWorkload ProblemKind = "legacy-workload"
	// ProblemWrongKind: the workload's kind is not the one the role makes.
	ProblemWrongKind ProblemKind = "wrong-kind"
	// ProblemUnknownRole: the operator does not know the role (Degraded).
	ProblemUnknownRole ProblemKind = "unknown-role"
	// ProblemUpgradeFailed: status.upgrade.phase is Failed; the workload
	// stays on status.lastGoodImage until a new tag is declared.
	ProblemUpgradeFailed ProblemKind = "upgrade-failed"
	// ProblemUnreadable: the identity may not read the workload (forbidden).
	ProblemUnreadable ProblemKind = "unreadable"
	// ProblemPodsFailing: pods of the workload crash-loop, cannot pull their
	// image, were OOM-killed or cannot be scheduled (one problem per reason).
	ProblemPodsFailing ProblemKind = "pods-failing"
)

// Problem is one finding on a row that the drift contract has no flag for.
// Text is a sentence for people; JSON carries both, so scripts can branch on
// kind and people can read text. Observed values are quoted in it as they
// are ("…", never %q): escaping is the printers' one rule, termtext.Sanitize
// (\x07, \u202e), and JSON keeps them exact, as in every other field.
type Problem struct {
	Kind ProblemKind `json:"kind"`
	Text string      `json:"text"`
	// Reason, Pods and Count are set on pods-failing problems: the
	// container or scheduling reason, the pods' names (at most 10) and how
	// many pods fail for it.
	Reason string   `json:"reason,omitempty"`
	Pods   []string `json:"pods,omitempty"`
	Count  int      `json:"count,omitempty"`
}

func (p Problem) String() string { return p.Text }

// HasProblem reports whether the row carries a problem of kind k.
func (v *AppView) HasProblem(k ProblemKind) bool {
	for _, p := range v.Problems {
		if p.Kind == k {
			return true
		}
	}
	return false
}

func (v *AppView) addProblem(k ProblemKind, text string) {
	v.Problems = append(v.Problems, Problem{Kind: k, Text: text})
}
