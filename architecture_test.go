package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// The import rules of docs/architecture.md, enforced: every import points
// down the layers, and the pure layers never pull in a cluster client or a
// terminal library, directly or through another package.

const module = "github.com/hanzoai/driftboard"

// layerRule says what the packages under one path may import from this
// module (besides their own subtree) and which outside modules they must
// never depend on, even indirectly.
type layerRule struct {
	path      string   // relative to the module; "" is main
	mayImport []string // module-relative prefixes
	never     []string // import path prefixes forbidden in Deps
}

var (
	clusterClients = []string{"k8s.io/client-go", "k8s.io/api/"}
	terminalLibs   = []string{"charm.land/", "github.com/charmbracelet/"}
	pureNever      = append(append([]string{"k8s.io/"}, clusterClients...), terminalLibs...)
	uiNever        = append(clusterClients, module+"/auth", module+"/kube")
	uiComponent    = []string{"model", "drift", "internal/termtext", "ui/format", "ui/keymap", "ui/styles"}
)

// rules is ordered from the bottom layer up; the longest matching path wins.
var rules = []layerRule{
	{path: "drift", never: []string{"."}}, // the standard library alone
	{path: "internal/termtext", never: pureNever},
	{path: "model", mayImport: []string{"drift"}, never: pureNever},
	{path: "model/imageref", never: pureNever},
	{path: "model/logbuf", never: pureNever},
	{path: "model/store", mayImport: []string{"model", "drift"}, never: pureNever},
	{path: "model/query", mayImport: []string{"model", "model/store", "drift"}, never: pureNever},
	{path: "model/modeltest", mayImport: []string{"model", "drift"}, never: pureNever},
	{path: "internal/config", never: append(clusterClients, terminalLibs...)},
	{path: "auth", mayImport: []string{"model"}, never: append(pureNever, module+"/kube")},
	{path: "internal/promote", mayImport: []string{"model", "drift"}, never: pureNever},
	{path: "internal/promote/yamledit", never: pureNever},
	{path: "kube/wire", mayImport: []string{"model", "drift", "internal/termtext"}, never: terminalLibs},
	{path: "kube/cd", mayImport: []string{"model", "drift", "kube/wire"}, never: terminalLibs},
	{path: "kube/provisional", mayImport: []string{"model", "kube/wire"}, never: terminalLibs},
	{path: "kube/podwatch", mayImport: []string{"model", "kube/wire"}, never: terminalLibs},
	{path: "kube/podlogs", mayImport: []string{"model", "drift"}, never: terminalLibs},
	{path: "kube/events", mayImport: []string{"model", "drift"}, never: terminalLibs},
	{path: "kube/execcred", never: terminalLibs},
	{path: "kube/karmada", never: terminalLibs},
	{path: "internal/restart", mayImport: []string{"model", "drift"}, never: pureNever},
	{path: "kube", mayImport: []string{"model", "drift", "internal/termtext", "internal/restart", "internal/promote"}, never: terminalLibs},
	{path: "internal/ghtoken", never: append(clusterClients, terminalLibs...)},
	{path: "internal/releasereader", mayImport: []string{"model", "drift", "internal/ghtoken"}, never: append(clusterClients, terminalLibs...)},
	{path: "internal/githubforge", mayImport: []string{"internal/promote", "internal/ghtoken"}, never: pureNever},
	{path: "internal/changestream", mayImport: []string{"model", "drift", "internal/termtext"}, never: pureNever},
	{path: "ui", mayImport: []string{"model", "drift", "internal/termtext", "internal/restart", "internal/promote"}, never: uiNever},
	// The renderer draws any program's frames: it knows nothing of the board.
	{path: "ui/terminal", mayImport: []string{"internal/termtext"}, never: uiNever},
	{path: "ui/styles", mayImport: []string{"model"}, never: uiNever},
	{path: "ui/keymap", never: uiNever},
	{path: "ui/format", mayImport: []string{"internal/termtext"}, never: uiNever},
	// The board's components: each draws and updates itself; none imports
	// the root or another component.
	{path: "ui/yaml", mayImport: uiComponent, never: uiNever},
	{path: "ui/logs", mayImport: uiComponent, never: uiNever},
	{path: "ui/detail", mayImport: uiComponent, never: uiNever},
	{path: "ui/board", mayImport: uiComponent, never: uiNever},
	// The dialogs ask the restart use case whether an answer confirms.
	{path: "ui/dialog", mayImport: append([]string{"internal/restart", "internal/promote"}, uiComponent...), never: uiNever},
	{path: "internal/demo", mayImport: []string{"kube", "model", "drift", "internal/termtext", "internal/promote"}, never: terminalLibs}, // internal/promote's subpackages included
	// The demo's GitHub: the promotion's Forge in memory; the promotion's tests use it too.
	{path: "internal/demo/demogithub", mayImport: []string{"internal/promote", "model", "drift"}, never: pureNever},
	{path: "screenshots", mayImport: []string{"screenshots", "ui", "model", "drift", "internal/demo", "internal/restart", "internal/termtext",
		"internal/cli", "internal/config"}}, // the board as the one constructor composes it
	{path: "internal/cli", mayImport: []string{"ui", "kube", "auth", "model", "drift", "internal/config", "internal/demo",
		"internal/releasereader", "internal/restart", "internal/promote", "internal/githubforge", "internal/ghtoken", "internal/changestream", "internal/termtext"}},
	{path: "", mayImport: []string{"internal/cli"}},
	// Test harnesses build and drive the whole program; nothing imports them.
	{path: "internal/testing", mayImport: []string{""}},
}

type listedPackage struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

func listPackages(t *testing.T) []listedPackage {
	t.Helper()
	out, err := exec.Command("go", "list", "-json", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p listedPackage
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found %d packages; the module has more", len(pkgs))
	}
	return pkgs
}

func relative(importPath string) (string, bool) {
	if importPath == module {
		return "", true
	}
	rel, ok := strings.CutPrefix(importPath, module+"/")
	return rel, ok
}

func under(rel, prefix string) bool {
	return prefix == "" || rel == prefix || strings.HasPrefix(rel, prefix+"/")
}

func ruleFor(rel string) (layerRule, bool) {
	best, found := layerRule{}, false
	for _, r := range rules {
		match := r.path == rel || (r.path != "" && under(rel, r.path))
		if match && (!found || len(r.path) > len(best.path)) {
			best, found = r, true
		}
	}
	return best, found
}

func TestImportsPointDown(t *testing.T) {
	for _, p := range listPackages(t) {
		rel, _ := relative(p.ImportPath)
		rule, ok := ruleFor(rel)
		if !ok {
			t.Errorf("%s: no layer in docs/architecture.md; add it there and to this test's rules", p.ImportPath)
			continue
		}
		for _, imp := range p.Imports {
			target, inModule := relative(imp)
			if !inModule {
				continue
			}
			if under(target, "internal/testing") && rule.path != "internal/testing" {
				t.Errorf("%s imports the test harness %s", p.ImportPath, imp)
				continue
			}
			if under(target, "model/modeltest") && rel != "model/modeltest" {
				t.Errorf("%s imports %s, which only tests may import", p.ImportPath, imp)
				continue
			}
			if rel != "" && under(target, rel) {
				continue // its own subtree
			}
			allowed := false
			for _, m := range rule.mayImport {
				if under(target, m) && (m != "" || target != "") {
					allowed = true
				}
			}
			if !allowed {
				t.Errorf("%s imports %s: not below it (docs/architecture.md)", p.ImportPath, imp)
			}
		}
		for _, dep := range p.Deps {
			for _, bad := range rule.never {
				if forbidden(dep, bad) {
					t.Errorf("%s depends on %s", p.ImportPath, dep)
				}
			}
		}
	}
}

// forbidden matches a dependency against a never-prefix; "." means any
// path outside the standard library (whose first element has no dot).
func forbidden(dep, bad string) bool {
	if bad == "." {
		first, _, _ := strings.Cut(dep, "/")
		return strings.Contains(first, ".")
	}
	return strings.HasPrefix(dep, bad)
}

// Every package is on the map, and the map names no package that is gone.
func TestArchitectureMapNamesEveryPackage(t *testing.T) {
	doc, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for _, p := range listPackages(t) {
		rel, _ := relative(p.ImportPath)
		if rel == "" || strings.HasPrefix(rel, "internal/testing/") {
			continue
		}
		if !bytes.Contains(doc, []byte("`"+rel+"/`")) {
			missing = append(missing, rel)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("docs/architecture.md does not name (as `path/`): %s", strings.Join(missing, ", "))
	}
}

// The rules themselves: subpackages fall under their parent's layer, and
// the never-lists catch what they are meant to.
func TestLayerRulesApply(t *testing.T) {
	for rel, want := range map[string]string{"model/store": "model/store", "model/store/x": "model/store", "model": "model", "ui/board": "ui/board", "ui/x": "ui", "internal/testing/e2e": "internal/testing",
		"internal/testing/ptyterm": "internal/testing", "": ""} {
		if rule, ok := ruleFor(rel); !ok || rule.path != want {
			t.Errorf("%q falls under %q, want %q", rel, rule.path, want)
		}
	}
	model, _ := ruleFor("model")
	for _, dep := range []string{"k8s.io/client-go/rest", "k8s.io/apimachinery/pkg/util/duration", "charm.land/bubbletea/v2"} {
		if !anyForbidden(dep, model.never) {
			t.Errorf("model may depend on %s by these rules", dep)
		}
	}
	if !forbidden("github.com/coreos/go-oidc/v3", ".") || forbidden("encoding/json", ".") {
		t.Error("drift's stdlib-only rule does not tell a module from the standard library")
	}
}

func anyForbidden(dep string, never []string) bool {
	for _, bad := range never {
		if forbidden(dep, bad) {
			return true
		}
	}
	return false
}

// No Go file past 300 lines: a longer one is a package or a component
// waiting to be split out.
func TestNoGoFileOver300Lines(t *testing.T) {
	out, err := exec.Command("git", "ls-files", "*.go").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	files := strings.Fields(string(out))
	if len(files) < 100 {
		t.Fatalf("git ls-files found %d Go files; the module has more", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // deleted in the work tree, not yet in the index
		}
		if n := bytes.Count(b, []byte("\n")); n > 300 {
			t.Errorf("%s has %d lines (at most 300)", f, n)
		}
	}
}
