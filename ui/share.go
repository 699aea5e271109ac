package ui

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/imageref"
	"github.com/hanzoai/driftboard/ui/format"
)

// openedMsg is the answer of the Cmd that opened a page in the browser.
type openedMsg struct {
	url string
	err error
}

// imageRef is what `c` copies: the declared image reference, parsed and
// rebuilt from its parts (what a person pastes into docker pull or a PR),
// else the app id when the row declares no image. Anything else is refused
// with the reason: a tenant's repository is pasted into a shell.
func imageRef(r *model.AppView) (string, error) {
	if r.Registry == "" || r.DeclaredTag == "" {
		if !plainID.MatchString(r.ID) {
			return "", errors.New("the app id holds characters other than letters, digits and . _ - /")
		}
		return r.ID, nil
	}
	return imageref.Copyable(r.Registry, r.DeclaredTag)
}

// plainID is an app id (org/app/env) made of what names are made of.
var plainID = regexp.MustCompile(`^[A-Za-z0-9._/-]{1,512}$`)

// copyRow puts the row's image reference on the clipboard through the
// terminal (OSC 52: works over SSH too, when the terminal allows it) and
// says what it copied, whole, or that the notice cut it.
func (m *Model) copyRow(r *model.AppView) tea.Cmd {
	if r == nil {
		return nil
	}
	text, err := imageRef(r)
	if err != nil {
		m.status = statusLine{text: "not copied: " + err.Error(), bad: true}
		return nil
	}
	notice := "copied " + text + " (through the terminal, OSC 52; some terminals need it allowed)"
	if len("copied "+text) > m.width {
		notice = fmt.Sprintf("copied, cut to fit (%d characters): %s", len(text), text)
	}
	m.status = statusLine{text: notice}
	if m.clipboard != nil {
		m.clipboard(text)
		return nil
	}
	return tea.SetClipboard(text)
}

// githubPath is a GitHub owner/repo and nothing else.
var githubPath = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}$`)

// releasePage is the https://github.com page `o` opens, built here from
// checked parts: the owner/repo of the release GitHub reported and the
// declared tag, escaped. Nothing taken from a cluster is opened as a URL.
// "" when no release page is known.
func releasePage(r *model.AppView) string {
	u, err := url.Parse(r.Release.URL)
	if err != nil || u.Scheme != "https" || u.Host != "github.com" {
		return ""
	}
	parts := strings.SplitN(strings.TrimPrefix(u.Path, "/"), "/", 3)
	if len(parts) < 2 || !githubPath.MatchString(parts[0]+"/"+parts[1]) {
		return ""
	}
	repo := "https://github.com/" + parts[0] + "/" + parts[1]
	if r.DeclaredTag == "" {
		return repo
	}
	return repo + "/releases/tag/" + url.PathEscape(r.DeclaredTag)
}

// openRelease opens the row's release page in the browser (OpenURL), or
// shows the address when no browser can be opened here.
func (m *Model) openRelease(r *model.AppView) tea.Cmd {
	if r == nil {
		return nil
	}
	page := releasePage(r)
	if page == "" {
		m.status = statusLine{text: "no GitHub release page known for " + format.Safe(r.App) + " (release: " + format.Safe(string(r.Release.State)) + ")", bad: true}
		return nil
	}
	if m.opts.OpenURL == nil {
		m.status = statusLine{text: "open " + page, keep: true} // the address to open by hand stays
		return nil
	}
	m.status = statusLine{text: "opening " + page + "…"}
	open := m.opts.OpenURL
	return func() tea.Msg { return openedMsg{url: page, err: open(page)} }
}

func (m *Model) onOpened(msg openedMsg) {
	if msg.err != nil {
		m.status = statusLine{text: "no browser could be opened; open " + msg.url, bad: true}
		return
	}
	m.status = statusLine{text: "opened " + msg.url}
}

// noSavedFilters is `f` without saved filters: how to add one.
func (m *Model) noSavedFilters() {
	m.status = statusLine{text: "no saved filters: add them to the config file under savedFilters: (name: query), see 'driftboard config'"}
}
