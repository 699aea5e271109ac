package detail

import (
	"time"

	"fmt"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/format"
	"github.com/hanzoai/driftboard/ui/styles"
)

// promotionLines is the detail's Promotion section: the state as last
// observed, each step reached with its time and age, the step over its
// budget or the exit with the reason, and its lead time once live.
func promotionLines(st *styles.Styles, p *model.Promotion, now time.Time, width int) []string {
	if p == nil {
		return nil
	}
	out := []string{"", st.Bold.Render("Promotion")}
	kv := func(k, v string) {
		out = append(out, format.Wrap(st.Dim.Render(fmt.Sprintf("%-16s", k))+format.Safe(v), width)...)
	}
	kv("to", p.To)
	kv("pull request", fmt.Sprintf("#%d %s", p.PR, p.URL))
	state := model.PromotionStepWords.Of(p.Step).Text
	if p.Checks != "" && p.Step == model.PromotionOpen {
		state += " (checks " + p.Checks + ")"
	}
	if p.MergeSHA != "" {
		state += " · merge " + model.ShortRevision(p.MergeSHA)
	}
	kv("state", state)
	if p.Unread != "" {
		out = append(out, format.Wrap(st.WarnText.Render("? not read again: ")+format.Safe(p.Unread)+"; the state above is the last observed", width)...)
	}
	for _, s := range p.Steps {
		kv("  "+model.PromotionStepWords.Of(s.Step).Text, format.Clock(s.At, now)+" ("+format.ShortDuration(now.Sub(s.At))+" ago)")
	}
	switch {
	case p.Step.Exit():
		out = append(out, format.Wrap(st.ErrText.Render("✖ stopped: ")+format.Safe(p.Why), width)...)
	case p.Late != "":
		out = append(out, format.Wrap(st.WarnText.Render("▲ over budget: ")+format.Safe(p.Late), width)...)
	case p.Why != "":
		kv("note", p.Why)
	}
	if p.Step == model.PromotionLive && p.LeadTime > 0 {
		kv("lead time", format.ShortDuration(p.LeadTime)+" (pull request opened → live)")
	}
	return out
}
