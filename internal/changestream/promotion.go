package changestream

import (
	"fmt"

	"github.com/hanzoai/driftboard/model"
)

// Promotions is what was read of the rows' promotions in flight, the same
// model.Promotion list and get show. A row in neither map has none.
type Promotions struct {
	Found   map[model.Key]model.Promotion
	Unknown map[model.Key]string // why a row's promotion could not be read
	// Why is set when no row's promotion could be read (no GitHub token).
	Why string
}

// PromotionView is a row's promotion as an event carries it: its step
// (a model.PromotionStep), "none", or "unknown" with why.
type PromotionView struct {
	Step string `json:"step"`
	To   string `json:"to,omitempty"`
	PR   int    `json:"pr,omitempty"`
	URL  string `json:"url,omitempty"`
	Late string `json:"late,omitempty"`
	Why  string `json:"why,omitempty"` // an exit's reason, or why it is unknown
}

// Promotion steps that are no model.PromotionStep.
const (
	PromotionNone    = "none"
	PromotionUnknown = "unknown"
)

func (p *Promotions) viewOf(k model.Key) *PromotionView {
	if p == nil {
		return nil // not read at all: the field is left out
	}
	if pr, ok := p.Found[k]; ok {
		return &PromotionView{Step: string(pr.Step), To: pr.To, PR: pr.PR, URL: pr.URL, Late: pr.Late, Why: pr.Why}
	}
	if why, ok := p.Unknown[k]; ok {
		return &PromotionView{Step: PromotionUnknown, Why: why}
	}
	if p.Why != "" {
		return &PromotionView{Step: PromotionUnknown, Why: p.Why}
	}
	return &PromotionView{Step: PromotionNone}
}

// samePromotion compares what makes an event: the step, the target, the
// pull request, being late or not, and why it is unknown. Late's wording
// carries an age that grows on every read, so only its presence counts.
func samePromotion(a, b *PromotionView) bool {
	if a == nil || b == nil {
		return a == b
	}
	same := a.Step == b.Step && a.To == b.To && a.PR == b.PR && (a.Late == "") == (b.Late == "")
	if a.Step == PromotionUnknown {
		same = same && a.Why == b.Why
	}
	return same
}

// promotionText is a promotion for text output.
func promotionText(p *PromotionView) string {
	switch {
	case p == nil:
		return ""
	case p.Step == PromotionNone:
		return p.Step
	case p.Step == PromotionUnknown:
		return fmt.Sprintf("unknown (%s)", p.Why)
	}
	s := fmt.Sprintf("%s to %s #%d", model.PromotionStepWords.Of(model.PromotionStep(p.Step)).Text, p.To, p.PR)
	if p.Late != "" {
		s += ", late: " + p.Late
	}
	if p.Why != "" {
		s += ", " + p.Why
	}
	return s
}
