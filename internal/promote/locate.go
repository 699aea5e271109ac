package promote

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/hanzoai/driftboard/internal/promote/yamledit"
	"github.com/hanzoai/driftboard/model"
)

// maxFilesRead bounds the YAML files read under one Application's path.
const maxFilesRead = 400

// Declaring is the file that declares an App's tag, as read.
type Declaring struct {
	Repo    Repo
	Base    string // the branch the pull request goes to
	Path    string
	Content []byte
	BlobSHA string
	// Application is "<group>/<namespace>/<name>" of the CD Application that
	// syncs the file; "" when the config named the file.
	Application string
	From        string // how it was found, in words
}

// FileOverride is the config's declaring file for an App (promote.files).
type FileOverride struct {
	Repo   Repo
	Path   string
	Branch string // "" is main
}

// Lookup is what finding the declaring file starts from.
type Lookup struct {
	Row *model.AppView
	// Applications are the CD Applications of the row's cluster.
	Applications []*model.CDApplication
	// TrackingID is the App CR's apps.hanzo.ai/tracking-id annotation,
	// "" when it has none.
	TrackingID string
	// Override is the config's file for the App, nil when it names none.
	Override *FileOverride
}

// Locate finds the one file that declares the row's App: the config's
// entry, else the YAML files under the path of the CD Application that
// manages the App CR, at the revision it follows. None or several → refused
// naming the files.
func Locate(ctx context.Context, f Forge, repoOf RepoParser, in Lookup) (Declaring, error) {
	app := yamledit.App{Name: in.Row.App, Namespace: in.Row.Namespace}
	if o := in.Override; o != nil {
		base := o.Branch
		if base == "" {
			base = "main"
		}
		content, sha, err := f.ReadFile(ctx, o.Repo, base, o.Path)
		if err != nil {
			return Declaring{}, fmt.Errorf("read %s:%s from the config's promote.files: %w", o.Repo, o.Path, err)
		}
		if err := yamledit.Declares(content, app); err != nil {
			return Declaring{}, &Refused{Reason: fmt.Sprintf("%s in %s (promote.files): %v", o.Path, o.Repo, err)}
		}
		return Declaring{Repo: o.Repo, Base: base, Path: o.Path, Content: content, BlobSHA: sha, From: "the config's promote.files"}, nil
	}
	a, err := managingApplication(in)
	if err != nil {
		return Declaring{}, err
	}
	repo, err := repoOf(a.RepoURL)
	if err != nil {
		return Declaring{}, &Refused{Reason: fmt.Sprintf("CD Application %s: %v", a.Name, strings.TrimPrefix(err.Error(), "refused: "))}
	}
	base := a.TargetRevision
	switch {
	case a.Chart != "":
		return Declaring{}, &Refused{Reason: fmt.Sprintf("CD Application %s deploys the Helm chart %s: the tag is in its values, not in an App CR", a.Name, a.Chart)}
	case base == "" || base == "HEAD":
		return Declaring{}, &Refused{Reason: fmt.Sprintf("CD Application %s follows HEAD, not a named branch, so there is no base branch for a pull request; set its targetRevision or name the file in promote.files", a.Name)}
	case len(base) == 40 && strings.Trim(base, "0123456789abcdef") == "":
		return Declaring{}, &Refused{Reason: fmt.Sprintf("CD Application %s is pinned to commit %s: a pull request would not move it", a.Name, model.ShortRevision(base))}
	}
	d := Declaring{Repo: repo, Base: base, Application: a.Group + "/" + a.Namespace + "/" + a.Name,
		From: fmt.Sprintf("CD Application %s (%s, path %s, revision %s)", a.Name, repo, a.Path, base)}
	return scan(ctx, f, d, a.Path, app)
}

// managingApplication is the Application that syncs the App CR: the one
// whose status lists it (the row's git sync), else the one its tracking-id
// names.
func managingApplication(in Lookup) (*model.CDApplication, error) {
	want := in.Row.Git.Application // <group>/<namespace>/<name>
	for _, a := range in.Applications {
		if want != "" && a.Group+"/"+a.Namespace+"/"+a.Name == want {
			return a, nil
		}
	}
	if name, _, ok := strings.Cut(in.TrackingID, ":"); ok && name != "" {
		var found []*model.CDApplication
		for _, a := range in.Applications {
			if a.Name == name {
				found = append(found, a)
			}
		}
		if len(found) == 1 {
			return found[0], nil
		}
		if len(found) > 1 {
			return nil, &Refused{Reason: fmt.Sprintf("the App's tracking-id names Application %s, and %d Applications have that name; name the file in promote.files", name, len(found))}
		}
	}
	why := "no CD Application lists it"
	if in.Row.Git.Why != "" {
		why = in.Row.Git.Why
	}
	return nil, &Refused{Reason: fmt.Sprintf("no CD Application is known to sync App %s/%s (%s); name its file in promote.files", in.Row.Namespace, in.Row.App, why)}
}

// scan reads the YAML files under dir and keeps the one that declares app.
func scan(ctx context.Context, f Forge, d Declaring, dir string, app yamledit.App) (Declaring, error) {
	paths, err := f.Tree(ctx, d.Repo, d.Base, dir)
	if err != nil {
		return Declaring{}, fmt.Errorf("list %s under %s at %s: %w", d.Repo, dir, d.Base, err)
	}
	var yamls []string
	for _, p := range paths {
		switch base := path.Base(p); {
		case base == "Chart.yaml" || base == "Chart.yml":
			return Declaring{}, &Refused{Reason: fmt.Sprintf("%s under %s is a Helm chart (%s): the tag is templated from its values", d.Repo, dir, p)}
		case base == "kustomization.yaml" || base == "kustomization.yml" || base == "Kustomization":
			return Declaring{}, &Refused{Reason: fmt.Sprintf("%s under %s is a kustomization (%s): a patch or images entry may set the tag", d.Repo, dir, p)}
		case strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml"):
			yamls = append(yamls, p)
		}
	}
	if len(yamls) > maxFilesRead {
		return Declaring{}, &Refused{Reason: fmt.Sprintf("%s holds %d YAML files under %s, more than the %d read; name the file in promote.files", d.Repo, len(yamls), dir, maxFilesRead)}
	}
	slices.Sort(yamls)
	var found []Declaring
	var refusals []string
	for _, p := range yamls {
		content, sha, err := f.ReadFile(ctx, d.Repo, d.Base, p)
		if err != nil {
			return Declaring{}, fmt.Errorf("read %s:%s at %s: %w", d.Repo, p, d.Base, err)
		}
		switch err := yamledit.Declares(content, app); {
		case err == nil:
			hit := d
			hit.Path, hit.Content, hit.BlobSHA = p, content, sha
			found = append(found, hit)
		case yamledit.IsRefused(err, yamledit.NotFound):
		case fileLevel(err) && !strings.Contains(string(content), app.Name):
			// a file that is not YAML and does not name the App is not its declaration
		default:
			refusals = append(refusals, p+": "+err.Error())
		}
	}
	switch {
	case len(found) == 1 && len(refusals) == 0:
		return found[0], nil
	case len(found) > 1:
		var names []string
		for _, h := range found {
			names = append(names, h.Path)
		}
		return Declaring{}, &Refused{Reason: fmt.Sprintf("App %s is declared in %d files under %s in %s: %s", app, len(found), dir, d.Repo, strings.Join(append(names, refusals...), ", "))}
	case len(refusals) > 0:
		return Declaring{}, &Refused{Reason: fmt.Sprintf("App %s under %s in %s: %s", app, dir, d.Repo, strings.Join(refusals, "; "))}
	}
	return Declaring{}, &Refused{Reason: fmt.Sprintf("no file under %s in %s at %s declares App %s (%d YAML files read)", dir, d.Repo, d.Base, app, len(yamls))}
}

// fileLevel reports whether err is about the whole file (not YAML), not a
// document of the App.
func fileLevel(err error) bool {
	var r *yamledit.Refused
	return errors.As(err, &r) && strings.HasPrefix(r.Reason, "not YAML") || strings.HasPrefix(err.Error(), "the file is a template")
}

// RepoParser reads an Application's repoURL as a repository on the
// configured GitHub host, refusing any other (the forge's ParseRepoURL), so
// the token never goes where a repoURL points.
type RepoParser func(repoURL string) (Repo, error)
