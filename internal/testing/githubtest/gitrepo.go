package githubtest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// gitRepo is a bare repository driven by git's plumbing, so every object the
// API answers with is a real git object and a merge is git's own merge.
type gitRepo struct {
	dir string
}

func initBare(dir string) (*gitRepo, error) {
	if out, err := exec.Command("git", "init", "-q", "--bare", "-b", "main", dir).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("git init: %v: %s", err, out)
	}
	return &gitRepo{dir: dir}, nil
}

// run runs git in the repository; env adds to the process environment.
func (g *gitRepo) run(stdin []byte, env []string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"--git-dir", g.dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	cmd.Env = append(cmd.Env, env...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, errb.String())
	}
	return strings.TrimRight(out.String(), "\n"), nil
}

// blob is a blob's bytes exactly (run trims the last newline).
func (g *gitRepo) blob(sha string) ([]byte, error) {
	return exec.Command("git", "--git-dir", g.dir, "cat-file", "blob", sha).Output()
}

// resolve is the object a revision names, "" if none.
func (g *gitRepo) resolve(rev string) string {
	sha, err := g.run(nil, nil, "rev-parse", "--verify", "--quiet", rev)
	if err != nil {
		return ""
	}
	return sha
}

func (g *gitRepo) objectType(sha string) string {
	t, _ := g.run(nil, nil, "cat-file", "-t", sha)
	return t
}

// treeEdit is one path of a new tree: content written as a blob, an
// existing blob, or (neither) the path removed.
type treeEdit struct {
	path, mode string
	content    *string
	sha        *string
}

// writeTree applies edits to base (a tree, or "" for the empty tree) through
// a private index and writes the result.
func (g *gitRepo) writeTree(base string, edits []treeEdit) (string, error) {
	idx, err := os.CreateTemp("", "githubtest-index-*")
	if err != nil {
		return "", err
	}
	idx.Close()
	os.Remove(idx.Name()) // git wants to create it itself
	defer os.Remove(idx.Name())
	env := []string{"GIT_INDEX_FILE=" + idx.Name()}
	if base != "" {
		if _, err := g.run(nil, env, "read-tree", base); err != nil {
			return "", err
		}
	} else if _, err := g.run(nil, env, "read-tree", "--empty"); err != nil {
		return "", err
	}
	for _, e := range edits {
		switch {
		case e.content != nil || e.sha != nil:
			blob := ""
			if e.content != nil {
				if blob, err = g.run([]byte(*e.content), nil, "hash-object", "-w", "--stdin"); err != nil {
					return "", err
				}
			} else {
				blob = *e.sha
			}
			mode := e.mode
			if mode == "" {
				mode = "100644"
			}
			if _, err := g.run(nil, env, "update-index", "--add", "--cacheinfo", mode+","+blob+","+e.path); err != nil {
				return "", err
			}
		default:
			if _, err := g.run(nil, env, "update-index", "--force-remove", e.path); err != nil {
				return "", err
			}
		}
	}
	return g.run(nil, env, "write-tree")
}

// commitTree writes a commit as login, at a fixed date so seeded SHAs are stable.
func (g *gitRepo) commitTree(tree, message, login string, parents ...string) (string, error) {
	args := []string{"commit-tree", tree, "-F", "-"}
	for _, p := range parents {
		args = append(args, "-p", p)
	}
	email := login + "@users.noreply.github.test"
	env := []string{"GIT_AUTHOR_NAME=" + login, "GIT_AUTHOR_EMAIL=" + email, "GIT_COMMITTER_NAME=" + login,
		"GIT_COMMITTER_EMAIL=" + email}
	return g.run([]byte(message), env, args...)
}

// updateRef moves ref from old to sha; old "" requires the ref not to exist.
func (g *gitRepo) updateRef(ref, sha, old string) error {
	_, err := g.run(nil, nil, "update-ref", ref, sha, old)
	return err
}

// commitFiles commits files onto branch as login; a new branch starts from
// from's head (or from nothing if from is "" or absent).
func (g *gitRepo) commitFiles(branch, from string, files map[string]string, message, login string) (string, error) {
	old := g.resolve("refs/heads/" + branch)
	parent := old
	if parent == "" && from != "" {
		parent = g.resolve("refs/heads/" + from)
	}
	base := ""
	if parent != "" {
		base = parent + "^{tree}"
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	edits := make([]treeEdit, 0, len(paths))
	for _, p := range paths {
		c := files[p]
		edits = append(edits, treeEdit{path: filepath.ToSlash(p), content: &c})
	}
	tree, err := g.writeTree(base, edits)
	if err != nil {
		return "", err
	}
	var parents []string
	if parent != "" {
		parents = []string{parent}
	}
	sha, err := g.commitTree(tree, message, login, parents...)
	if err != nil {
		return "", err
	}
	return sha, g.updateRef("refs/heads/"+branch, sha, old)
}

// commitInfo is what GET git/commits answers with.
type commitInfo struct {
	tree, message, author, email, date string
	parents                            []string
}

func (g *gitRepo) commit(sha string) (commitInfo, error) {
	out, err := g.run(nil, nil, "show", "-s", "--format=%T%n%P%n%an%n%ae%n%aI%n%B", sha)
	if err != nil {
		return commitInfo{}, err
	}
	f := strings.SplitN(out, "\n", 6)
	for len(f) < 6 {
		f = append(f, "")
	}
	return commitInfo{tree: f[0], parents: strings.Fields(f[1]), author: f[2], email: f[3], date: f[4], message: f[5]}, nil
}

// treeLine is one line of git ls-tree -l.
type treeLine struct {
	mode, typ, sha, path string
	size                 int
}

func (g *gitRepo) lsTree(treeish string, recursive bool) ([]treeLine, error) {
	args := []string{"ls-tree", "-l", "--full-tree", "-z"}
	if recursive {
		args = append(args, "-r", "-t")
	}
	out, err := g.run(nil, nil, append(args, treeish)...)
	if err != nil {
		return nil, err
	}
	var lines []treeLine
	for _, rec := range strings.Split(out, "\x00") {
		meta, path, ok := strings.Cut(rec, "\t")
		if !ok {
			continue
		}
		f := strings.Fields(meta)
		if len(f) < 4 {
			continue
		}
		l := treeLine{mode: f[0], typ: f[1], sha: f[2], path: path}
		fmt.Sscan(f[3], &l.size)
		lines = append(lines, l)
	}
	return lines, nil
}

// merge merges head into base as git merge would, and commits the result
// with parents (base and head for a merge commit, base alone for a squash).
// conflict is true when the trees do not merge cleanly.
func (g *gitRepo) merge(base, head, message, login string, parents ...string) (sha string, conflict bool, err error) {
	tree, err := g.run(nil, nil, "merge-tree", "--write-tree", base, head)
	if err != nil {
		return "", true, nil // exit status 1: conflicts
	}
	tree, _, _ = strings.Cut(tree, "\n")
	sha, err = g.commitTree(tree, message, login, parents...)
	return sha, false, err
}
