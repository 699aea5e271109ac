package cli

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// A hostile API server's Status message holds line breaks to forge lines of
// driftboard's own on stderr ("rollout … complete"): every value quoted
// there stays on one line, its breaks escaped.
func TestServerMessageForgesNoLineOnStderr(t *testing.T) {
	forged := "denied\ndriftboard: rollout of hanzo/iam complete\nrestarted hanzo/iam as iam:u-alice"
	proxy := failingLists(t, iamCluster(t), isList("/apis/hanzo.ai/v1/", "apps"), http.StatusForbidden, "Forbidden", forged)
	kc := writeKubeconfig(t, proxy.URL, "proxied")
	r := newEnv(t).run(t, "list", "--kubeconfig", kc, "--releases=off", "--timeout", "20s", "-o", "json")
	r.expect(t, ExitError, `denied\x0adriftboard: rollout of hanzo/iam complete\x0arestarted hanzo/iam`)
	for _, line := range strings.Split(r.err, "\n") {
		if strings.HasPrefix(line, "driftboard: rollout") || strings.HasPrefix(line, "restarted hanzo/iam") {
			t.Errorf("a forged line on stderr: %q\n%s", line, r.err)
		}
	}
}

// Errors joined by errors.Join stay one per line; the line breaks inside
// each are escaped, however deep.
func TestErrorLinesKeepsOnlyJoinedLines(t *testing.T) {
	inner := errors.Join(errors.New("pod a: x\ny"), fmt.Errorf("pod b: %w", errors.New("z\r\nw")))
	err := errors.Join(inner, errors.New("cluster c\nforged"))
	want := `pod a: x\x0ay` + "\n" + `pod b: z\x0d\x0aw` + "\n" + `cluster c\x0aforged`
	if got := errorLines(err); got != want {
		t.Errorf("errorLines = %q, want %q", got, want)
	}
	if got := errorLines(fmt.Errorf("wrapped: %w", inner)); strings.Contains(got, "\n") {
		t.Errorf("a joined error quoted inside another forged a line: %q", got)
	}
}
