package cli

import (
	"strings"
	"testing"
)

// A context the kubeconfig lacks is named as kubectl names it, with the
// ones it has, not clientcmd's "invalid configuration: [context was not
// found for specified context: …, cluster has no server defined]".
func TestUnknownContextSaysWhichExist(t *testing.T) {
	e := newEnv(t)
	kc := writeKubeconfig(t, "https://127.0.0.1:1", "prod", "stage")
	r := e.run(t, "list", "--kubeconfig", kc, "--context", "nope", "--releases=off")
	r.expect(t, ExitError, `context "nope" does not exist in the kubeconfig (its contexts: prod, stage)`)
	if strings.Contains(r.err, "invalid configuration") || strings.Contains(r.err, "no server defined") {
		t.Errorf("clientcmd's words leak through:\n%s", r.err)
	}
}
