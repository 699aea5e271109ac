package promote

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hanzoai/driftboard/internal/promote/yamledit"
	"github.com/hanzoai/driftboard/model"
)

// SetRefusal is one App of a set left out, and why.
type SetRefusal struct {
	Key    model.Key
	Reason string
}

// PlannedSet is one pull request for a set of Apps: each planned as Plan
// plans one, every file in one commit; the Apps refused are left out and
// named.
type PlannedSet struct {
	Plans   []model.PromotionPlan
	Refused []SetRefusal
	Change  Change
	// MustType: a production App is in the set; confirming takes typing
	// the set's words (SetWords).
	MustType bool
}

// SetWords is what confirming a set with a production App takes typing.
func (s PlannedSet) SetWords() string { return fmt.Sprintf("promote %d apps", len(s.Plans)) }

// PlanSet plans the set's one pull request. Apps whose file is in another
// repository or branch than the first planned one's are refused: one pull
// request changes one repository.
func PlanSet(ctx context.Context, f Forge, repoOf RepoParser, reqs []Request) (PlannedSet, error) {
	var s PlannedSet
	files := map[string]*FileEdit{}
	var order []string
	for _, r := range reqs {
		p, err := Plan(ctx, f, repoOf, r)
		var refused *Refused
		switch {
		case errors.As(err, &refused):
			s.Refused = append(s.Refused, SetRefusal{r.Row.Key(), refused.Reason})
			continue
		case err != nil:
			return PlannedSet{}, err
		case len(s.Plans) > 0 && (p.Change.Repo != s.Change.Repo || p.Base != s.Change.Base):
			s.Refused = append(s.Refused, SetRefusal{r.Row.Key(), fmt.Sprintf("its file is in %s on %s; this pull request is for %s on %s",
				p.Change.Repo, p.Base, s.Change.Repo, s.Change.Base)})
			continue
		}
		fe := p.Change.Files[0]
		if prev := files[fe.Path]; prev != nil { // a second App in the same file: its line edited too
			e, err := yamledit.SetTag(prev.Content, yamledit.App{Name: r.Row.App, Namespace: r.Row.Namespace}, p.To)
			if err != nil {
				s.Refused = append(s.Refused, SetRefusal{r.Row.Key(), err.Error()})
				continue
			}
			prev.Content = e.Content
		} else {
			files[fe.Path] = &fe
			order = append(order, fe.Path)
		}
		if len(s.Plans) == 0 {
			s.Change = Change{Repo: p.Change.Repo, Base: p.Base}
		}
		s.Plans = append(s.Plans, p.PromotionPlan)
		s.MustType = s.MustType || p.MustType
	}
	if len(s.Plans) == 0 {
		return s, &Refused{Reason: "no App of the set can be promoted"}
	}
	for _, path := range order {
		s.Change.Files = append(s.Change.Files, *files[path])
	}
	s.Change.Branch, s.Change.Title, s.Change.Body = setWords(s.Plans)
	s.Change.Message = s.Change.Title + "\n\nAsked with driftboard by " + orLogin(s.Plans[0].Asker, s.Plans[0].Login) + "."
	for i := range s.Plans {
		s.Plans[i].Branch, s.Plans[i].Title = s.Change.Branch, s.Change.Title
	}
	return s, nil
}

// setWords are a set's branch (its env and a digest of what it promotes),
// title and body.
func setWords(plans []model.PromotionPlan) (branch, title, body string) {
	var parts, names, bodies []string
	envs := map[model.Env]bool{}
	for _, p := range plans {
		parts = append(parts, p.Key.String()+"@"+p.To)
		names = append(names, p.Key.Name+" → "+p.To)
		bodies = append(bodies, p.Body)
		envs[p.Env] = true
	}
	slices.Sort(parts)
	sum := sha256.Sum256([]byte(strings.Join(parts, "\n")))
	env := string(plans[0].Env)
	if len(envs) > 1 {
		env = "mixed"
	}
	branch = model.PromotionBranchPrefix + env + "/set-" + hex.EncodeToString(sum[:])[:12]
	title = fmt.Sprintf("promote %d apps: %s", len(plans), strings.Join(names, ", "))
	if len(title) > 200 {
		title = title[:197] + "..."
	}
	return branch, title, strings.Join(bodies, "\n---\n\n") + "\n" + setMembersLine(plans)
}

// setMembersMark starts the hidden line of a set's body that names what it
// promotes, so its Apps' promotions are found again from the pull request
// alone: "<!-- driftboard-promotes: cluster/namespace/app=tag … -->".
const setMembersMark = "<!-- driftboard-promotes: "

func setMembersLine(plans []model.PromotionPlan) string {
	var parts []string
	for _, p := range plans {
		parts = append(parts, p.Key.String()+"="+p.To)
	}
	return setMembersMark + strings.Join(parts, " ") + " -->\n"
}

// SetMembers is what a set's pull request body says it promotes: each
// App's key and tag; nil for a body without the line.
func SetMembers(body string) map[model.Key]string {
	_, rest, ok := strings.Cut(body, setMembersMark)
	if !ok {
		return nil
	}
	line, _, _ := strings.Cut(rest, "-->")
	out := map[model.Key]string{}
	for _, f := range strings.Fields(line) {
		key, tag, ok := strings.Cut(f, "=")
		parts := strings.Split(key, "/")
		if !ok || tag == "" || len(parts) != 3 {
			continue
		}
		out[model.Key{Cluster: parts[0], Namespace: parts[1], Name: parts[2]}] = tag
	}
	return out
}

// ProposeSet opens the set's pull request, once confirmed: y (or --yes),
// and with a production App the set's words typed.
func ProposeSet(ctx context.Context, f Forge, s PlannedSet, c Confirmation) (PullRequest, error) {
	switch {
	case s.MustType && c.Typed != s.SetWords():
		return PullRequest{}, &Refused{Reason: fmt.Sprintf("the set has a production App: type %q to confirm", s.SetWords())}
	case !s.MustType && !c.Yes:
		return PullRequest{}, &Refused{Reason: "not confirmed (the default is No)"}
	}
	pr, err := f.Propose(ctx, s.Change)
	if err != nil {
		return PullRequest{}, fmt.Errorf("open the pull request on %s: %w", s.Change.Repo, err)
	}
	return pr, nil
}
