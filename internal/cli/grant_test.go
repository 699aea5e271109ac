package cli

import (
	"net"
	"strings"
	"testing"
)

func TestChooseGrant(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	cases := []struct {
		name       string
		grant      string
		terminal   bool
		getenv     func(string) string
		goos       string
		browser    bool
		reasonHas  string
		wantErrHas string
	}{
		{"linux desktop", "auto", true, env("DISPLAY", ":0"), "linux", true, "", ""},
		{"wayland", "auto", true, env("WAYLAND_DISPLAY", "wayland-0"), "linux", true, "", ""},
		{"linux without display", "auto", true, env(), "linux", false, "no display", ""},
		{"ssh with X forwarding", "auto", true, env("DISPLAY", "localhost:10.0", "SSH_CONNECTION", "10.0.0.1 22 10.0.0.2 5000"), "linux", false, "SSH", ""},
		{"ssh tty on a mac", "auto", true, env("SSH_TTY", "/dev/ttys001"), "darwin", false, "SSH", ""},
		{"ssh client", "", true, env("SSH_CLIENT", "10.0.0.1 5000 22", "DISPLAY", ":0"), "linux", false, "SSH", ""},
		{"mac desktop", "auto", true, env(), "darwin", true, "", ""},
		{"not a terminal", "auto", false, env("DISPLAY", ":0"), "linux", false, "not a terminal", ""},
		{"forced device", "device", true, env("DISPLAY", ":0"), "linux", false, "", ""},
		{"forced authcode over ssh", "authcode", true, env("SSH_TTY", "/dev/pts/0"), "linux", true, "", ""},
		{"bad value", "pkce", true, env(), "linux", false, "", "--grant-type must be auto, device or authcode"},
	}
	for _, c := range cases {
		got, err := chooseGrant(c.grant, c.terminal, c.getenv, c.goos)
		if c.wantErrHas != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErrHas) {
				t.Errorf("%s: err %v, want %q", c.name, err, c.wantErrHas)
			}
			continue
		}
		if err != nil || got.browser != c.browser || !strings.Contains(got.reason, c.reasonHas) || (c.reasonHas == "" && got.reason != "") {
			t.Errorf("%s: got %+v, %v; want browser %v, reason with %q", c.name, got, err, c.browser, c.reasonHas)
		}
	}
}

func TestCheckListenAddress(t *testing.T) {
	for _, ok := range []string{"", "127.0.0.1:8000", "[::1]:0", "localhost:18000", "127.0.0.2:8000"} {
		if err := checkListenAddress(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"0.0.0.0:8000", ":8000", "10.1.2.3:8000", "example.com:80", "8000"} {
		if err := checkListenAddress(bad); err == nil {
			t.Errorf("%q accepted: the login code would be offered off this machine", bad)
		}
	}
}

// Over SSH, `driftboard login` says it uses the device code flow and why,
// before it contacts the issuer (here one that refuses connections).
func TestLoginOverSSHUsesTheDeviceFlow(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()
	e := newEnv(t)
	e.inTerminal = true
	e.vars["SSH_CONNECTION"] = "10.0.0.1 50000 10.0.0.2 22"
	e.vars["DISPLAY"] = ":0"
	e.vars["HANZO_IAM_ISSUER"] = closed
	r := e.run(t, "login", "--timeout", "5s")
	r.expect(t, ExitError, "Using the device code flow: this is an SSH session", "--grant-type authcode")

	e.run(t, "login", "--grant-type", "pkce").expect(t, ExitError, "--grant-type must be auto, device or authcode")
	e.run(t, "login", "--grant-type", "authcode", "--listen-address", "0.0.0.0:8000").expect(t, ExitError, "must be loopback")
	e.run(t, "login", "--device", "--grant-type", "authcode").expect(t, ExitError, "exclude each other")
}
