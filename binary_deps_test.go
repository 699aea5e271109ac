package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The binary links the client of the API groups the board uses, not
// client-go's clientset of every group (kubernetes.NewForConfig, its fake,
// the informer factories built on it): those added 31 MB to it
// (docs/performance.md).
func TestBinaryLinksNoAllGroupsClientset(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	banned := map[string]bool{
		"k8s.io/client-go/kubernetes":      true,
		"k8s.io/client-go/kubernetes/fake": true,
		"k8s.io/client-go/informers":       true,
	}
	for _, dep := range strings.Fields(string(out)) {
		if banned[dep] {
			t.Errorf("the binary links %s; use the typed clients of the groups it needs (kube.TypedClients)", dep)
		}
	}
}
