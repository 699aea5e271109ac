package cli

import (
	"net/http"
	"testing"
	"time"
)

// A list the access probe allowed but the server refuses on every try (400
// from a proxy to every App list but the probe's) fails the cluster: list,
// get and watch exit 2 at once with the server's reason, instead of waiting
// out --timeout and saying only that it passed.
func TestCommandsExitWhenTheFirstListIsRefused(t *testing.T) {
	proxy := failingLists(t, iamCluster(t), isList("/apis/hanzo.ai/v1/", "apps"), http.StatusBadRequest,
		"BadRequest", "unable to parse requirement: the proxy refuses this list")
	e := newEnv(t)
	base := []string{"--kubeconfig", writeKubeconfig(t, proxy.URL, "test"), "--releases=off", "--timeout", "50s"}
	for _, args := range [][]string{{"list", "-o", "json"}, {"get", "hanzo/iam"}, {"watch", "-o", "jsonl"}} {
		t.Run(args[0], func(t *testing.T) {
			start := time.Now()
			r := e.run(t, append(args, base...)...)
			r.expect(t, ExitError, "cluster test: listing apps", "keeps failing (retrying)", "unable to parse requirement")
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("%s took %s to give up on a refused list (the --timeout is 50s)", args[0], d.Round(time.Second))
			}
			if r.out != "" {
				t.Errorf("%s printed data for a fleet it could not read:\n%s", args[0], r.out)
			}
		})
	}
}
