package cli

import (
	"net"
	"path/filepath"
	"strings"
	"testing"
)

// Without any kubeconfig, the error says so in a line, without client-go's
// in-cluster variables, and points at the demo.
func TestNoKubeconfigPointsAtDemo(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("KUBECONFIG", filepath.Join(home, "none"))
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	t.Setenv("KUBERNETES_SERVICE_PORT", "")
	e := newEnv(t)
	r := e.run(t, "list")
	r.expect(t, ExitError, "error: no kubeconfig", "driftboard demo")
	for _, noise := range []string{"KUBERNETES_SERVICE_HOST", "unable to load in-cluster configuration", "cluster kubeconfig:"} {
		if strings.Contains(r.err, noise) {
			t.Errorf("says %q:\n%s", noise, r.err)
		}
	}
	if n := strings.Count(strings.TrimSpace(r.err), "\n"); n != 0 {
		t.Errorf("%d lines, want one:\n%s", n+1, r.err)
	}
}

// A server that accepts connections and never answers is named, by
// context and address, when --timeout ends the wait.
func TestHungServerNamedInTimeout(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() }) // held open, never answered
		}
	}()
	server := "https://" + ln.Addr().String()
	e := newEnv(t)
	r := e.run(t, "list", "--kubeconfig", writeKubeconfig(t, server, "stuck"), "--releases=off", "--timeout", "3s")
	r.expect(t, ExitError, "stuck", ln.Addr().String(), "no answer", "3s")
	t.Logf("stderr:\n%s", r.err)
}
