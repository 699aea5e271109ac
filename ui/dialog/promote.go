package dialog

import (
	"errors"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/internal/promote"
	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/keymap"
	"github.com/hanzoai/driftboard/ui/styles"
)

// PromotePhase is where a promote dialog stands.
type PromotePhase int

const (
	PromotePlanning PromotePhase = iota // the use case's Plan running
	PromoteRefused                      // refused: says why; nothing was written
	PromoteAsk                          // the plan shown: waiting for y / the typed name
	PromoteChoose                       // choosing another release tag
	PromoteSending                      // the pull request being opened
	PromoteFailed                       // opening it failed
)

// Promote shows exactly what a promotion will do (the use case's plan:
// one row, or a marked set in one pull request) and asks, default No;
// production needs the App's name (a set: the set's words) typed. Whether
// the answer confirms is internal/promote's call: the dialog only asks.
type Promote struct {
	keys    []model.Key
	rows    []*model.AppView // as they were when opened
	to      string           // the tag asked for; "" is the newest release
	tags    []string         // the rows' release tags the picker offers
	plan    promote.Planned
	set     promote.PlannedSet
	phase   PromotePhase
	before  PromotePhase // the phase choosing a tag returns to
	reason  string
	confirm promote.Confirmation
	typed   textinput.Model
	tag     textinput.Model
	km      keymap.Map
}

// NewPromote is the promote dialog of rows (one, or a marked set), planning
// the newest release: the root runs the plan and hands it to Planned.
func NewPromote(rows []*model.AppView, st *styles.Styles, km keymap.Map) *Promote {
	d := &Promote{rows: rows, km: km}
	for _, r := range rows {
		d.keys = append(d.keys, r.Key())
		if r.LatestTag != "" && !slices.Contains(d.tags, r.LatestTag) {
			d.tags = append(d.tags, r.LatestTag)
		}
		for _, rel := range r.Release.Releases { // the row's release list, newest first
			if !slices.Contains(d.tags, rel.Tag) {
				d.tags = append(d.tags, rel.Tag)
			}
		}
	}
	d.typed = textinput.New()
	d.typed.CharLimit = 253
	d.typed.SetStyles(st.Input)
	d.tag = textinput.New()
	d.tag.Prompt = "release tag: "
	d.tag.CharLimit = 128
	d.tag.SetStyles(st.Input)
	return d
}

// Keys are the Apps the dialog promotes; To the tag asked ("" newest).
func (d *Promote) Keys() []model.Key { return d.keys }
func (d *Promote) To() string        { return d.to }
func (d *Promote) IsSet() bool       { return len(d.keys) > 1 }

// Phase is where the dialog stands; Reason why it refused or failed.
func (d *Promote) Phase() PromotePhase { return d.phase }
func (d *Promote) Reason() string      { return d.reason }

// Plan is the plan shown (one row); Set the set's.
func (d *Promote) Plan() promote.Planned   { return d.plan }
func (d *Promote) Set() promote.PlannedSet { return d.set }

// Planning shows the plan being read.
func (d *Promote) Planning() { d.phase, d.reason = PromotePlanning, "" }

// Refuse shows why nothing will be written.
func (d *Promote) Refuse(reason string) { d.phase, d.reason = PromoteRefused, reason }

// Planned takes the use case's plan of one row, or its refusal.
func (d *Promote) Planned(p promote.Planned, err error) tea.Cmd {
	if err != nil {
		d.Refuse(refusal(err))
		return nil
	}
	d.plan = p
	return d.ask(p.MustType, p.Key.Name)
}

// PlannedSet takes the use case's plan of the set, or its refusal.
func (d *Promote) PlannedSet(s promote.PlannedSet, err error) tea.Cmd {
	if err != nil {
		d.Refuse(refusal(err))
		return nil
	}
	d.set = s
	return d.ask(s.MustType, s.SetWords())
}

func (d *Promote) ask(mustType bool, words string) tea.Cmd {
	d.phase, d.reason = PromoteAsk, ""
	d.typed.Reset()
	if mustType {
		d.typed.Prompt = "type " + words + ": "
		return d.typed.Focus()
	}
	d.typed.Blur()
	return nil
}

// Confirmation is the person's answer the root hands the use case.
func (d *Promote) Confirmation() promote.Confirmation { return d.confirm }

// Send shows the pull request being opened.
func (d *Promote) Send() { d.phase = PromoteSending }

// Failed shows why the pull request was not opened; a refusal of the
// answer (the name mistyped) asks again.
func (d *Promote) Failed(err error) tea.Cmd {
	var r *promote.Refused
	if errors.As(err, &r) && d.mustType() {
		cmd := d.ask(true, d.words())
		d.reason = r.Reason
		return cmd
	}
	d.phase, d.reason = PromoteFailed, refusal(err)
	return nil
}

func refusal(err error) string {
	var r *promote.Refused
	if errors.As(err, &r) {
		return r.Reason
	}
	return err.Error()
}

func (d *Promote) mustType() bool {
	if d.IsSet() {
		return d.set.MustType
	}
	return d.plan.MustType
}

func (d *Promote) words() string {
	if d.IsSet() {
		return d.set.SetWords()
	}
	return d.plan.Key.Name
}

// Busy: the plan or the pull request is under way.
func (d *Promote) Busy() bool { return d.phase == PromotePlanning || d.phase == PromoteSending }

func (d *Promote) declined() Action {
	what := "promotion of " + d.keys[0].Namespace + "/" + d.keys[0].Name
	if d.IsSet() {
		what = "promotion of the marked set"
	}
	return Close{Status: what + " declined: nothing written"}
}

// Update answers a key: confirm, choose another tag, close, or nothing yet.
func (d *Promote) Update(msg tea.KeyPressMsg) (Action, tea.Cmd) {
	k := &d.km
	if d.phase == PromoteChoose {
		return d.choose(msg)
	}
	if key.Matches(msg, k.Back) {
		if d.phase == PromoteAsk || d.phase == PromotePlanning {
			return d.declined(), nil
		}
		return Close{}, nil
	}
	switch d.phase {
	case PromoteAsk:
		if key.Matches(msg, k.PromoteTag) && !d.mustType() || msg.String() == "tab" {
			return None{}, d.enterChoose()
		}
		if d.mustType() {
			if key.Matches(msg, k.Accept) {
				d.confirm = promote.Confirmation{Typed: d.typed.Value()}
				return ProposePromotion{d}, nil
			}
			var cmd tea.Cmd
			d.typed, cmd = d.typed.Update(msg)
			d.reason = ""
			return None{}, cmd
		}
		switch {
		case key.Matches(msg, k.Yes):
			d.confirm = promote.Confirmation{Yes: true}
			return ProposePromotion{d}, nil
		case key.Matches(msg, k.No, k.Accept, k.Quit):
			return d.declined(), nil // default is No
		}
	case PromoteRefused, PromoteFailed:
		if key.Matches(msg, k.Accept, k.Quit, k.No) {
			return Close{}, nil
		}
		if key.Matches(msg, k.PromoteTag) || msg.String() == "tab" {
			return None{}, d.enterChoose()
		}
	}
	return None{}, nil
}

// choose edits the release tag: up/down step through the rows' release
// tags, enter plans the tag (one that is not a release the board read is
// refused by the plan, with the reason), esc goes back to the plan.
func (d *Promote) choose(msg tea.KeyPressMsg) (Action, tea.Cmd) {
	k := &d.km
	switch {
	case key.Matches(msg, k.Back):
		d.tag.Blur()
		d.phase = d.before
		return None{}, d.ask0()
	case key.Matches(msg, k.Accept):
		d.tag.Blur()
		d.to = strings.TrimSpace(d.tag.Value())
		d.Planning()
		return PlanPromotion{d}, nil
	case msg.String() == "up" || msg.String() == "down":
		if len(d.tags) > 0 {
			i := slices.Index(d.tags, d.tag.Value())
			step := 1
			if msg.String() == "up" {
				step = len(d.tags) - 1
			}
			d.tag.SetValue(d.tags[(i+step+len(d.tags))%len(d.tags)])
			d.tag.CursorEnd()
		}
		return None{}, nil
	}
	var cmd tea.Cmd
	d.tag, cmd = d.tag.Update(msg)
	return None{}, cmd
}

func (d *Promote) enterChoose() tea.Cmd {
	d.before, d.phase = d.phase, PromoteChoose
	d.typed.Blur()
	d.tag.SetValue(d.currentTag())
	d.tag.CursorEnd()
	return d.tag.Focus()
}

// ask0 refocuses the typed name when going back to a production question.
func (d *Promote) ask0() tea.Cmd {
	if d.phase == PromoteAsk && d.mustType() {
		return d.typed.Focus()
	}
	return nil
}

// currentTag is the tag planned, or the newest release.
func (d *Promote) currentTag() string {
	switch {
	case d.to != "":
		return d.to
	case d.plan.To != "":
		return d.plan.To
	case len(d.tags) > 0:
		return d.tags[0]
	}
	return ""
}
