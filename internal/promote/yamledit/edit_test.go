package yamledit

import (
	"strings"
	"testing"
)

var gateway = App{Name: "gateway", Namespace: "hanzo"}

// oneLineDiff fails unless before and after differ in exactly line (1-based),
// which must read want after the edit.
func oneLineDiff(t *testing.T, before, after string, line int, want string) {
	t.Helper()
	b, a := strings.Split(before, "\n"), strings.Split(after, "\n")
	if len(b) != len(a) {
		t.Fatalf("line count %d → %d:\n%s", len(b), len(a), after)
	}
	for i := range b {
		switch {
		case i == line-1 && a[i] != want:
			t.Errorf("line %d = %q, want %q", line, a[i], want)
		case i != line-1 && a[i] != b[i]:
			t.Errorf("line %d changed: %q → %q", i+1, b[i], a[i])
		}
	}
}

func TestSetTagChangesOnlyTheTagLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file, tag string
		line            int
		want            string
		quoted          bool
	}{
		{name: "comments and key order", tag: "v1.9.0", line: 11, want: "    tag: v1.9.0 # bumped by hand, usually", file: `# gateway: the public API edge
apiVersion: hanzo.ai/v1
kind: App
metadata:
  namespace: hanzo   # namespace before name, on purpose
  name: gateway
spec:
  role: gateway
  image:
    repository: oci.hanzo.ai/hanzo/gateway
    tag: v1.8.2 # bumped by hand, usually
  replicas: 2
`},
		{name: "multi-document, the second", tag: "v2.0.1", line: 19, want: `    tag: "v2.0.1"`, file: `apiVersion: hanzo.ai/v1
kind: App
metadata:
  name: gateway
  namespace: hanzo-testnet
spec:
  image:
    repository: oci.hanzo.ai/hanzo/gateway
    tag: "v2.0.0"
---
apiVersion: hanzo.ai/v1
kind: App
metadata:
  name: gateway
  namespace: hanzo
spec:
  image:
    repository: oci.hanzo.ai/hanzo/gateway
    tag: "v2.0.0"
---
apiVersion: v1
kind: ConfigMap
metadata: {name: gateway, namespace: hanzo}
data: {tag: v2.0.0}
`},
		{name: "single quotes kept", tag: "3.86.4-amd64", line: 8, want: `    tag: '3.86.4-amd64'`, file: `apiVersion: hanzo.ai/v1
kind: App
metadata:
  name: gateway
  namespace: hanzo
spec:
  image:
    tag: '3.86.3-amd64'
    repository: oci.hanzo.ai/hanzo/gateway
`},
		{name: "numeric tag into a plain scalar is quoted", tag: "19", line: 8, want: `    tag: "19"`, quoted: true, file: `apiVersion: hanzo.ai/v1
kind: App
metadata:
  name: gateway
  namespace: hanzo
spec:
  image:
    tag: v18
`},
		{name: "YAML 1.1 number quoted", tag: "1_000", line: 7, want: `  image: {repository: oci.hanzo.ai/hanzo/gateway, tag: "1_000"}`, quoted: true, file: `apiVersion: hanzo.ai/v1
kind: App
metadata:
  name: gateway
  namespace: hanzo
spec:
  image: {repository: oci.hanzo.ai/hanzo/gateway, tag: main}
`},
		{name: "numeric tag into quotes stays as written", tag: "1.10", line: 8, want: `    tag: "1.10"`, file: `apiVersion: hanzo.ai/v1
kind: App
metadata:
  name: gateway
  namespace: hanzo
spec:
  image:
    tag: "1.9"
`},
		{name: "anchors elsewhere kept", tag: "v1.9.0", line: 11, want: `    tag: v1.9.0`, file: `apiVersion: hanzo.ai/v1
kind: App
metadata:
  name: gateway
  namespace: hanzo
  labels: &labels
    hanzo.ai/org: hanzo
spec:
  image:
    repository: oci.hanzo.ai/hanzo/gateway
    tag: v1.8.2
  labels: *labels
`},
		{name: "CRLF line endings", tag: "v1.9.0", line: 8, want: "    tag: v1.9.0\r", file: strings.ReplaceAll(`apiVersion: hanzo.ai/v1
kind: App
metadata:
  name: gateway
  namespace: hanzo
spec:
  image:
    tag: v1.8.2
  replicas: 2
`, "\n", "\r\n")},
		{name: "non-ASCII before the tag", tag: "v2", line: 7, want: `  image: {repository: "oci.hanzo.ai/hanzo/gateway", note: "größer", tag: v2}`, file: `apiVersion: hanzo.ai/v1
kind: App
metadata:
  name: gateway
  namespace: hanzo
spec:
  image: {repository: "oci.hanzo.ai/hanzo/gateway", note: "größer", tag: v1}
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, err := SetTag([]byte(tt.file), gateway, tt.tag)
			if err != nil {
				t.Fatal(err)
			}
			oneLineDiff(t, tt.file, string(e.Content), tt.line, tt.want)
			if e.Line != tt.line || e.After != strings.TrimSuffix(tt.want, "\r") || e.Quoted != tt.quoted || e.To != tt.tag {
				t.Errorf("edit = line %d %q quoted %v to %q", e.Line, e.After, e.Quoted, e.To)
			}
		})
	}
}

func TestSetTagRefuses(t *testing.T) {
	t.Parallel()
	app := func(meta, image string) string {
		return "apiVersion: hanzo.ai/v1\nkind: App\nmetadata:\n" + meta + "spec:\n" + image
	}
	ours := "  name: gateway\n  namespace: hanzo\n"
	tests := []struct {
		name, file, tag string
		why             Why
		says            string
	}{
		{"no App", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: gateway}\n", "v2", NotFound, "no App document"},
		{"another App", app("  name: gateway\n  namespace: hanzo-testnet\n", "  image: {tag: v1}\n"), "v2", NotFound, "App hanzo-testnet/gateway at line 1"},
		{"twice", app(ours, "  image: {tag: v1}\n") + "---\n" + app(ours, "  image: {tag: v1}\n"), "v2", Several, "2 times in the file (lines 1, 9)"},
		{"alias tag", "x: &t v1\n---\n" + app(ours, "  image:\n    tag: *t\n"), "v2", Anchored, "alias (*t)"},
		{"anchored tag", app(ours, "  image:\n    tag: &t v1\n  sidecar: {tag: *t}\n"), "v2", Anchored, "anchor &t"},
		{"image alias", app(ours, "  image: *img\n") + "\nx: &img {tag: v1}\n", "v2", Unreadable, "not YAML"},
		{"merge key", "base: &base {tag: v1}\n---\n" + app(ours, "  image:\n    <<: {tag: v1}\n"), "v2", Anchored, "merge key"},
		{"helm template", app(ours, "  image:\n    tag: {{ .Values.image.tag }}\n"), "v2", Templated, "template"},
		{"quoted template", app(ours, "  image:\n    tag: \"{{ .Values.tag }}\"\n"), "v2", Templated, "templated"},
		{"envsubst", app(ours, "  image:\n    tag: ${TAG}\n"), "v2", Templated, "templated"},
		{"no tag", app(ours, "  image:\n    repository: x\n"), "v2", Unreadable, "declares no tag"},
		{"empty tag", app(ours, "  image:\n    tag:\n"), "v2", Unreadable, "empty"},
		{"not a tag", app(ours, "  image:\n    tag: v1\n"), "v2\nkind: Secret", BadTag, "not an image tag"},
		{"block scalar", app(ours, "  image:\n    tag: |\n      v1\n"), "v2", Unreadable, "block scalar"},
		{"plain over lines", app(ours, "  image:\n    tag: v1\n      v1b\n"), "v2", Unreadable, "one scalar"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := SetTag([]byte(tt.file), gateway, tt.tag)
			if !IsRefused(err, tt.why) || !strings.Contains(err.Error(), tt.says) {
				t.Fatalf("err = %v, want %s saying %q", err, tt.why, tt.says)
			}
		})
	}
}

func TestReadsAsString(t *testing.T) {
	t.Parallel()
	for tag, want := range map[string]bool{
		"v1.2.3": true, "3.86.3-amd64": true, "sha-1a2b3c": true, "main": true, "latest": true,
		"18": false, "1.10": false, "1e3": false, "yes": false, "on": false, "null": false, "true": false,
		"017": false, "0x1F": false, "1_000": false, ".5": false,
	} {
		if got := readsAsString(tag); got != want {
			t.Errorf("readsAsString(%q) = %v, want %v", tag, got, want)
		}
	}
}
