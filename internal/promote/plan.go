package promote

import (
	"context"
	"errors"
	"fmt"

	"github.com/hanzoai/driftboard/internal/promote/yamledit"
	"github.com/hanzoai/driftboard/model"
)

// Request is what a promotion is planned from: the row as observed, the
// releases the board read for it, the tag asked for, where its file may be
// found, and who asks.
type Request struct {
	Row *model.AppView
	// Releases are the tags the promotion may target; nil is the row's
	// release list (Row.Release.Releases).
	Releases []model.ReleaseTag
	To       string // a tag, "latest" or "" (the newest release)
	Lookup   Lookup // Row is set from the request's
	Asker    string // the IAM identity, as the pull request names it
}

// Planned is a plan and the change it sends once confirmed.
type Planned struct {
	model.PromotionPlan
	Change Change
}

// Plan reads everything a promotion will do and writes nothing: the target
// release, the GitHub login it acts as, the declaring file and its one-line
// diff, the branch and the pull request. Refusals are *Refused.
func Plan(ctx context.Context, f Forge, repoOf RepoParser, in Request) (Planned, error) {
	releases := in.Releases
	if releases == nil {
		releases = in.Row.Release.Releases
	}
	to, why := model.PromotionTarget(in.Row, releases, in.To)
	if why != "" {
		return Planned{}, &Refused{Reason: why}
	}
	login, err := f.Login(ctx)
	if err != nil {
		return Planned{}, err
	}
	lookup := in.Lookup
	lookup.Row = in.Row
	d, err := Locate(ctx, f, repoOf, lookup)
	if err != nil {
		return Planned{}, err
	}
	v := in.Row
	e, err := yamledit.SetTag(d.Content, yamledit.App{Name: v.App, Namespace: v.Namespace}, to.Tag)
	if err != nil {
		var r *yamledit.Refused
		if errors.As(err, &r) {
			return Planned{}, &Refused{Reason: fmt.Sprintf("%s in %s: %s", d.Path, d.Repo, r.Reason)}
		}
		return Planned{}, err
	}
	p := model.PromotionPlan{
		Key: v.Key(), Env: v.Env, From: v.DeclaredTag, To: to.Tag, NotesURL: to.URL, Digest: to.Digest,
		Repo: d.Repo.String(), Base: d.Base, Path: d.Path, Line: e.Line, Before: e.Before, After: e.After, Quoted: e.Quoted,
		Branch: model.PromotionBranch(v.Env, v.App, to.Tag), Title: model.PromotionTitle(v, to.Tag),
		Body:  model.PromotionBody(v, to, in.Asker, login),
		Login: login, Asker: in.Asker, Application: d.Application, Found: d.From,
		MustType: v.Env.IsProduction(),
	}
	if a := applicationOf(lookup.Applications, d.Application); a != nil {
		p.Automated = a.Automated
	}
	if e.From != v.DeclaredTag {
		p.From = e.From // git is what the pull request changes; the row's tag may lag
	}
	c := Change{Repo: d.Repo, Base: d.Base, Branch: p.Branch, Title: p.Title, Body: p.Body,
		Message: p.Title + "\n\nAsked with driftboard by " + orLogin(in.Asker, login) + ".",
		Files:   []FileEdit{{Path: d.Path, OldSHA: d.BlobSHA, Content: e.Content}}}
	return Planned{PromotionPlan: p, Change: c}, nil
}

func orLogin(asker, login string) string {
	if asker != "" {
		return asker
	}
	return login
}

func applicationOf(apps []*model.CDApplication, id string) *model.CDApplication {
	for _, a := range apps {
		if id != "" && a.Group+"/"+a.Namespace+"/"+a.Name == id {
			return a
		}
	}
	return nil
}

// Confirmation is what the person gave: y (or --yes), and on production the
// App's name typed.
type Confirmation struct {
	Yes   bool
	Typed string // the App's name as typed; production needs it
}

// confirmed is why c does not confirm p ("" when it does).
func confirmed(p model.PromotionPlan, c Confirmation) string {
	switch {
	case p.MustType && c.Typed != p.Key.Name:
		return fmt.Sprintf("%s is production: type the App's name %s to confirm", p.Key.Name, p.Key.Name)
	case !c.Yes && !p.MustType:
		return "not confirmed (the default is No)"
	}
	return ""
}

// Propose opens the plan's pull request as the engineer, once confirmed;
// an open pull request for the same branch is reused, never duplicated.
func Propose(ctx context.Context, f Forge, p Planned, c Confirmation) (PullRequest, error) {
	if why := confirmed(p.PromotionPlan, c); why != "" {
		return PullRequest{}, &Refused{Reason: why}
	}
	if p.Change.Branch == p.Change.Base {
		return PullRequest{}, &Refused{Reason: "a promotion never writes to its base branch " + p.Change.Base}
	}
	pr, err := f.Propose(ctx, p.Change)
	if err != nil {
		return PullRequest{}, fmt.Errorf("open the pull request on %s: %w", p.Change.Repo, err)
	}
	return pr, nil
}

// Merge merges an open pull request whose checks passed (or that has none),
// once confirmed; GitHub's own refusal (branch protection, reviews) is
// returned as it said it.
func Merge(ctx context.Context, f Forge, pr PullRequest, p model.PromotionPlan, c Confirmation) (PullRequest, error) {
	if why := confirmed(p, c); why != "" {
		return PullRequest{}, &Refused{Reason: why}
	}
	switch {
	case pr.State != PROpen:
		return PullRequest{}, &Refused{Reason: fmt.Sprintf("pull request #%d is %s", pr.Number, pr.State)}
	case pr.Checks != ChecksPassed && pr.Checks != ChecksNone:
		return PullRequest{}, &Refused{Reason: fmt.Sprintf("pull request #%d's checks are %s: it is merged once they pass", pr.Number, pr.Checks)}
	}
	merged, err := f.Merge(ctx, pr.Repo, pr.Number, pr.HeadSHA)
	if err != nil {
		return PullRequest{}, fmt.Errorf("merge pull request #%d on %s: %w", pr.Number, pr.Repo, err)
	}
	return merged, nil
}
