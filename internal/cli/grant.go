package cli

import (
	"fmt"
	"io"
	"net"
	"runtime"

	"github.com/cli/browser"
)

// Grant types of `driftboard login --grant-type`, as kubelogin names them.
const (
	grantAuto     = "auto"     // authcode when a browser can show on this machine, else device
	grantDevice   = "device"   // OAuth device authorization grant: a code to enter anywhere
	grantAuthcode = "authcode" // authorization code + PKCE with a loopback redirect
)

// grantChoice is what login will do and, for auto, why.
type grantChoice struct {
	browser bool   // authorization code flow (false: device flow)
	reason  string // why auto chose the device flow; "" otherwise
}

// chooseGrant resolves --grant-type. auto picks the device flow when a
// browser here could not reach the person: stdin is not a terminal, the
// session is remote (SSH_CLIENT, SSH_CONNECTION or SSH_TTY set; a browser
// would open on the far machine, and the redirect to 127.0.0.1 lands here),
// or, on Linux and the BSDs, there is no display (DISPLAY, WAYLAND_DISPLAY).
func chooseGrant(grant string, inTerminal bool, getenv func(string) string, goos string) (grantChoice, error) {
	switch grant {
	case grantDevice:
		return grantChoice{}, nil
	case grantAuthcode:
		return grantChoice{browser: true}, nil
	case grantAuto, "":
	default:
		return grantChoice{}, usageErr("--grant-type must be auto, device or authcode, not %q", grant)
	}
	switch {
	case !inTerminal:
		return grantChoice{reason: "stdin is not a terminal"}, nil
	case getenv("SSH_CLIENT") != "" || getenv("SSH_CONNECTION") != "" || getenv("SSH_TTY") != "":
		return grantChoice{reason: "this is an SSH session"}, nil
	case goos != "darwin" && goos != "windows" && getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == "":
		return grantChoice{reason: "there is no display (DISPLAY and WAYLAND_DISPLAY are unset)"}, nil
	}
	return grantChoice{browser: true}, nil
}

// checkListenAddress accepts only a loopback host:port: the redirect carries
// the authorization code, which must not be offered to the network.
func checkListenAddress(addr string) error {
	if addr == "" {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return usageErr("--listen-address %q: %v (want host:port, e.g. 127.0.0.1:8000)", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return usageErr("--listen-address %q: the host must be loopback (127.0.0.1, ::1 or localhost): the redirect carries the login code", addr)
	}
	return nil
}

// openBrowser opens url with github.com/cli/browser (open, xdg-open,
// x-www-browser, wslview, rundll32); an error means "no browser". The
// opener's own output would land on the terminal, so it is discarded.
func openBrowser(url string) error {
	browser.Stdout, browser.Stderr = io.Discard, io.Discard
	if err := browser.OpenURL(url); err != nil {
		return fmt.Errorf("open a browser on %s: %w", runtime.GOOS, err)
	}
	return nil
}

// pageOpener is how the board's o opens a github.com page: the browser when
// one here can reach the person (the rule of login's --grant-type auto),
// else nil, and the board shows the address to open by hand.
func (a *app) pageOpener() func(string) error {
	if g, _ := chooseGrant(grantAuto, a.streams.InTerminal, a.streams.Getenv, runtime.GOOS); g.browser {
		return openBrowser
	}
	return nil
}
