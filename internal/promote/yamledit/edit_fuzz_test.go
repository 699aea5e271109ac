package yamledit

import (
	"bytes"
	"testing"

	"go.yaml.in/yaml/v3"
)

// FuzzSetTag: a file from git is outside input. Whatever it holds, SetTag
// never panics, and an edit it makes changes exactly the one line it names,
// reads back as the new tag, and leaves every other byte where it was.
func FuzzSetTag(f *testing.F) {
	seeds := []string{
		"apiVersion: hanzo.ai/v1\nkind: App\nmetadata:\n  name: iam\n  namespace: hanzo\nspec:\n  image:\n    tag: v1.2.3 # pinned\n",
		"---\nkind: Service\n---\r\napiVersion: hanzo.ai/v1\r\nkind: App\r\nmetadata: {name: iam, namespace: hanzo}\r\nspec:\r\n  image:\r\n    tag: '18'\r\n",
		"apiVersion: hanzo.ai/v1\nkind: App\nmetadata:\n  name: iam\n  namespace: hanzo\nspec:\n  image: {repository: ghcr.io/hanzoai/iam, tag: \"v2\"}\n",
		"x: &a v1\napiVersion: hanzo.ai/v1\nkind: App\nmetadata:\n  name: iam\n  namespace: hanzo\nspec:\n  image:\n    tag: *a\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s), "v1.3.0")
	}
	app := App{Name: "iam", Namespace: "hanzo"}
	f.Fuzz(func(t *testing.T, src []byte, tag string) {
		e, err := SetTag(src, app, tag)
		if err != nil {
			return
		}
		before, after := bytes.Split(src, []byte("\n")), bytes.Split(e.Content, []byte("\n"))
		if len(before) != len(after) {
			t.Fatalf("the edit changed the number of lines: %d → %d", len(before), len(after))
		}
		for i := range before {
			if i+1 != e.Line && !bytes.Equal(before[i], after[i]) {
				t.Fatalf("line %d changed, the edit names line %d:\n%q\n%q", i+1, e.Line, before[i], after[i])
			}
		}
		again, err := SetTag(e.Content, app, tag)
		if err != nil {
			t.Fatalf("the edited file no longer reads: %v\n%q", err, e.Content)
		}
		if again.From != tag {
			t.Fatalf("the edited file declares %q, want %q", again.From, tag)
		}
		var n yaml.Node
		if err := yaml.Unmarshal(e.Content, &n); err != nil && yaml.Unmarshal(src, &n) == nil {
			t.Fatalf("the edit made the file unparseable: %v", err)
		}
	})
}
