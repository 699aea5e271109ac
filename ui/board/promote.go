package board

import (
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
)

// SetPromotions sets the PROMOTE cell of each row with a promotion the
// root keeps; the column shows only while there is one.
func (b *View) SetPromotions(cells map[model.Key]string) {
	b.promotions, b.promoteWidth = cells, 0
	for _, c := range cells {
		b.promoteWidth = max(b.promoteWidth, format.TextWidth(c))
	}
}

// PromoteCell is a promotion's PROMOTE cell: its step's board word, "!"
// before it when a step is over its budget or the promotion stopped.
func PromoteCell(p model.Promotion) string {
	w := model.PromotionStepWords.Of(p.Step).Board
	if w == "" {
		w = string(p.Step)
	}
	if p.Late != "" || p.Step.Exit() {
		return "! " + w
	}
	if p.Unread != "" { // the last read failed: this is what was seen before
		return "? " + w
	}
	return w
}
