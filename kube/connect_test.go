package kube

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hanzoai/driftboard/model"
)

const twoContexts = `apiVersion: v1
kind: Config
current-context: a
clusters:
- name: ca
  cluster: {server: "https://127.0.0.1:1"}
users:
- name: u
  user: {token: t}
contexts:
- name: a
  context: {cluster: ca, user: u}
- name: b
  context: {cluster: ca, user: u}
- name: broken
  context: {cluster: nowhere, user: u}
`

func TestConnectFollowsKubeconfigRules(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(path, []byte(twoContexts), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", path)

	got := func(o ConnectOptions) (names []string, failed []string) {
		cs, states := Connect(o)
		for _, c := range cs {
			names = append(names, c.Name)
		}
		for _, s := range states {
			if s.Phase != model.ConnFailed || s.Reason == "" {
				t.Errorf("state %+v", s)
			}
			failed = append(failed, s.Name)
		}
		return names, failed
	}
	if n, f := got(ConnectOptions{}); strings.Join(n, ",") != "a" || len(f) != 0 {
		t.Errorf("current context: %v failed %v", n, f)
	}
	if n, f := got(ConnectOptions{Contexts: []string{"b", "broken"}}); strings.Join(n, ",") != "b" || strings.Join(f, ",") != "broken" {
		t.Errorf("--context b,broken: %v failed %v", n, f)
	}
	if n, f := got(ConnectOptions{AllContexts: true}); strings.Join(n, ",") != "a,b" || strings.Join(f, ",") != "broken" {
		t.Errorf("--all-contexts: %v failed %v", n, f)
	}
	if n, f := got(ConnectOptions{Kubeconfig: filepath.Join(t.TempDir(), "missing")}); len(n) != 0 || len(f) != 1 {
		t.Errorf("missing --kubeconfig: %v failed %v", n, f)
	}
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "none"))
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	_, states := Connect(ConnectOptions{})
	if len(states) != 1 || !strings.Contains(states[0].Reason, "in-cluster") {
		t.Errorf("nothing resolves: %+v", states)
	}
}
