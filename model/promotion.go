package model

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// A promotion writes a release's tag into the App CR that declares it in
// git, as a pull request opened as the engineer; this file holds its rules
// that need no IO: which tag, the branch, the pull request's words and what
// the dialog shows. Its states are in promotion_state.go.

// PromotionBranchPrefix starts every promotion branch, so promotions in
// flight are found again from the open pull requests alone.
const PromotionBranchPrefix = "driftboard/"

// ReleaseTag is one release the board read for a row's repository.
type ReleaseTag struct {
	Tag       string    `json:"tag"`
	URL       string    `json:"url,omitempty"` // its notes (html_url)
	Published time.Time `json:"publishedAt,omitzero"`
	Digest    string    `json:"digest,omitempty"` // the registry's digest behind the tag, "" when not read
	// Prerelease: GitHub marks it so; latest never picks one, --to may.
	Prerelease bool `json:"prerelease,omitempty"`
}

// PromotionTarget is the release a promotion writes: want "" or "latest"
// is the row's newest release, any other tag must be one of releases (the
// row's release list) or the newest. The refusal says why when it is not.
func PromotionTarget(v *AppView, releases []ReleaseTag, want string) (ReleaseTag, string) {
	switch {
	case v.Kind == KindChart:
		return ReleaseTag{}, fmt.Sprintf("%s is on the Helm chart plane: its tag is in the chart's values, not in an App CR", v.App)
	case v.Kind != "" && v.Kind != "App":
		return ReleaseTag{}, fmt.Sprintf("%s is a %s, written by the platform, not declared in git", v.App, v.Kind)
	case !v.Release.Checked():
		return ReleaseTag{}, fmt.Sprintf("the releases of %s have not been read (%s): only a release the board read is promoted", orNone(v.Repo), orNone(v.Release.Detail))
	}
	if want == "" || want == "latest" {
		if v.LatestTag == "" {
			return ReleaseTag{}, fmt.Sprintf("%s has no release the board read", orNone(v.Repo))
		}
		want = v.LatestTag
	}
	var t ReleaseTag
	if i := slices.IndexFunc(releases, func(r ReleaseTag) bool { return r.Tag == want }); i >= 0 {
		t = releases[i]
	} else if want == v.LatestTag {
		t = ReleaseTag{Tag: want}
	} else {
		read := []string{}
		for _, r := range releases {
			read = append(read, r.Tag)
		}
		if len(read) == 0 && v.LatestTag != "" {
			read = append(read, v.LatestTag)
		}
		return ReleaseTag{}, fmt.Sprintf("%s is not a release the board read for %s (read: %s)", want, orNone(v.Repo), orNone(strings.Join(read, ", ")))
	}
	if want == v.DeclaredTag {
		return ReleaseTag{}, fmt.Sprintf("%s already declares %s", v.App, want)
	}
	return t, ""
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// PromotionBranch is the branch of a promotion: driftboard/<env>/<app>-<tag>.
func PromotionBranch(env Env, app, tag string) string {
	return PromotionBranchPrefix + string(env) + "/" + app + "-" + tag
}

// PromotionPlan is everything a promotion will do, as the dialog and
// --dry-run show it before anything is written.
type PromotionPlan struct {
	Key      Key    `json:"key"`
	Env      Env    `json:"env"`
	From     string `json:"from"` // the declared tag
	To       string `json:"to"`
	NotesURL string `json:"releaseNotes,omitempty"`
	Digest   string `json:"digest,omitempty"` // the release's, when read
	Repo     string `json:"repo"`             // owner/name
	Base     string `json:"base"`             // the base branch
	Path     string `json:"path"`
	// The one-line diff: the line's number and its text before and after.
	Line   int    `json:"line"`
	Before string `json:"before"`
	After  string `json:"after"`
	// Quoted: a tag that would not read back as a string plain is quoted.
	Quoted bool   `json:"quoted,omitempty"`
	Branch string `json:"branch"`
	Title  string `json:"title"`
	Body   string `json:"body"`
	Login  string `json:"login"` // the GitHub account the pull request is opened as
	Asker  string `json:"askedBy,omitempty"`
	// Application is the CD Application that syncs the file
	// ("<group>/<namespace>/<name>"), "" when the config named it.
	Application string `json:"application,omitempty"`
	Found       string `json:"found"` // how the file was found
	// Automated: the Application syncs by itself; a sync is a refresh.
	Automated bool `json:"automated,omitempty"`
	// MustType: production, so the App's name must be typed to confirm.
	MustType bool `json:"mustType"`
}

// PromotionTitle is the pull request's title.
func PromotionTitle(v *AppView, to string) string {
	return fmt.Sprintf("%s: %s → %s (%s, %s)", v.App, orNone(v.DeclaredTag), to, v.Env, v.Cluster)
}

// PromotionBody is the pull request's body: the row's facts as observed
// when it was opened, and who asked.
func PromotionBody(v *AppView, to ReleaseTag, asker, login string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Promotes **%s** (%s/%s on cluster %s, env %s) to release **%s**.\n\n", v.App, v.Namespace, v.App, v.Cluster, v.Env, to.Tag)
	b.WriteString("| | tag | digest |\n|---|---|---|\n")
	fmt.Fprintf(&b, "| declared | %s | |\n", cell(v.DeclaredTag))
	fmt.Fprintf(&b, "| running | %s | %s |\n", cell(v.RunningTag), cell(strings.Join(v.Workload.Digests, ", ")))
	fmt.Fprintf(&b, "| latest release | %s | |\n", cell(v.LatestTag))
	fmt.Fprintf(&b, "| promoted to | %s | %s |\n\n", cell(to.Tag), cell(to.Digest))
	if to.URL != "" {
		fmt.Fprintf(&b, "Release notes: %s\n\n", to.URL)
	}
	who := login
	if asker != "" {
		who = fmt.Sprintf("%s (IAM), as GitHub user %s", asker, login)
	}
	fmt.Fprintf(&b, "Asked by %s with driftboard. Merging it changes one line; CD applies it.\n", who)
	return b.String()
}

// cell is a table cell: markdown's pipes escaped, "-" when empty.
func cell(s string) string {
	if s == "" {
		return "-"
	}
	return strings.ReplaceAll(s, "|", `\|`)
}
