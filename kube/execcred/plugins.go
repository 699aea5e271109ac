// Package execcred runs the kubeconfig users' exec credential plugins for
// the board, in place of client-go's runner: up front with the terminal,
// then without it once the board has the screen.
package execcred

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/client-go/pkg/apis/clientauthentication"
	"k8s.io/client-go/pkg/apis/clientauthentication/install"
	"k8s.io/client-go/rest"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// Plugins runs the kubeconfig users' exec credential plugins
// (kubelogin, aws eks get-token, ...) for the board. client-go's own runner
// gives every run the process's stdin and stderr, so a plugin run while the
// board has the screen would write its prompt into the frame and read the
// board's keys. Here each plugin runs once up front with the terminal, as
// kubectl runs it, and its credential is kept for the session; once the
// board has the screen (Detach) a plugin run again (its credential expired
// or was refused) gets no stdin, is told it is not interactive, and its
// stderr goes into the error the cluster's state line shows.
type Plugins struct {
	mu       sync.Mutex
	in       io.Reader // nil once detached
	out      io.Writer // the terminal's stderr; nil once detached
	terminal bool      // in is a terminal
	byKey    map[string]*Plugin
	now      func() time.Time
}

// New runs plugins with in and errOut (the terminal) until
// Detach; inTerminal says whether in is a terminal a plugin may prompt on.
func New(in io.Reader, errOut io.Writer, inTerminal bool) *Plugins {
	return &Plugins{in: in, out: errOut, terminal: inTerminal, byKey: map[string]*Plugin{}, now: time.Now}
}

// Detach hands the terminal to the board: no plugin reads or writes it again.
func (c *Plugins) Detach() {
	c.mu.Lock()
	c.in, c.out = nil, nil
	c.mu.Unlock()
}

// Error is a credential plugin (its command's name) that could not
// give a credential.
type Error struct {
	Command string
	Why     string
}

func (e *Error) Error() string { return "credential plugin " + e.Command + " failed: " + e.Why }

// For is the runner of one exec config for one API server, shared by
// every client made for it (a reconnect reuses the credential), as
// client-go shares its authenticators.
func (c *Plugins) For(contextName string, cfg *rest.Config) (*Plugin, error) {
	ec := cfg.ExecProvider
	gv, ok := execVersions[ec.APIVersion]
	if !ok {
		return nil, fmt.Errorf("exec plugin: invalid apiVersion %q", ec.APIVersion)
	}
	key := fmt.Sprintf("%q %q %q %q %q %v %v %v", cfg.Host, ec.Command, ec.Args, ec.Env, ec.APIVersion,
		ec.InteractiveMode, ec.ProvideClusterInfo, ec.StdinUnavailable)
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.byKey[key]; p != nil {
		return p, nil
	}
	p := &Plugin{owner: c, context: contextName, cfg: ec.DeepCopy(), gv: gv}
	if ec.ProvideClusterInfo {
		cluster, err := rest.ConfigToExecCluster(cfg)
		if err != nil {
			return nil, err
		}
		p.cluster = cluster
	}
	c.byKey[key] = p
	return p, nil
}

// terminal is the stdin and stderr a plugin may use now (nil, nil once the
// board has the screen), and whether stdin is a terminal.
func (c *Plugins) terminalNow() (io.Reader, io.Writer, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.in, c.out, c.terminal && c.in != nil
}

var (
	execScheme   = runtime.NewScheme()
	execCodecs   = serializer.NewCodecFactory(execScheme)
	execVersions = map[string]schema.GroupVersion{
		"client.authentication.k8s.io/v1":      {Group: "client.authentication.k8s.io", Version: "v1"},
		"client.authentication.k8s.io/v1beta1": {Group: "client.authentication.k8s.io", Version: "v1beta1"},
	}
)

func init() { install.Install(execScheme) }

// Plugin is one exec config's plugin and the credential it gave.
type Plugin struct {
	owner   *Plugins
	context string // the first context it was made for, named on the terminal
	cfg     *clientcmdapi.ExecConfig
	gv      schema.GroupVersion
	cluster *clientauthentication.Cluster

	run       sync.Mutex // one run at a time; a second caller waits and takes its result
	mu        sync.Mutex
	token     string
	cert, key []byte
	exp       time.Time
	have      bool
}

// Credential returns the kept credential, running the plugin when there is
// none or it expired: with the terminal when prime says so and the board
// has not taken it (Connect, before the board starts), else without.
func (p *Plugin) Credential(prime bool) (token string, err error) {
	p.run.Lock()
	defer p.run.Unlock()
	p.mu.Lock()
	if p.have && (p.exp.IsZero() || p.owner.now().Before(p.exp)) {
		token := p.token
		p.mu.Unlock()
		return token, nil
	}
	p.mu.Unlock()
	return p.refresh(prime)
}

// refused drops token after the API server answered 401 to it, so the next
// request runs the plugin again.
func (p *Plugin) refused(token string) {
	p.mu.Lock()
	if p.token == token {
		p.have = false
	}
	p.mu.Unlock()
}

// detachedLimit bounds a run nobody can answer.
const detachedLimit = time.Minute

func (p *Plugin) refresh(prime bool) (string, error) {
	var in io.Reader
	var errOut io.Writer
	var terminal bool
	if prime {
		in, errOut, terminal = p.owner.terminalNow()
	}
	interactive := false
	switch p.cfg.InteractiveMode {
	case clientcmdapi.IfAvailableExecInteractiveMode:
		interactive = terminal && !p.cfg.StdinUnavailable
	case clientcmdapi.AlwaysExecInteractiveMode:
		if !terminal || p.cfg.StdinUnavailable {
			return "", p.fail("it needs a terminal (interactiveMode: Always), which the board holds: quit and start driftboard again to run it")
		}
		interactive = true
	}
	info, err := runtime.Encode(execCodecs.LegacyCodec(p.gv), &clientauthentication.ExecCredential{
		Spec: clientauthentication.ExecCredentialSpec{Interactive: interactive, Cluster: p.cluster}})
	if err != nil {
		return "", fmt.Errorf("encode ExecCredential: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if errOut == nil {
		ctx, cancel = context.WithTimeout(ctx, detachedLimit)
	}
	defer cancel()
	cmd := exec.CommandContext(ctx, p.cfg.Command, p.cfg.Args...)
	cmd.WaitDelay = time.Second // a child left holding its stderr does not hold the board
	cmd.Env = append(os.Environ(), "KUBERNETES_EXEC_INFO="+string(info))
	for _, e := range p.cfg.Env {
		cmd.Env = append(cmd.Env, e.Name+"="+e.Value)
	}
	var stdout bytes.Buffer
	stderr := &tailBuffer{max: 4096}
	cmd.Stdout, cmd.Stderr = &stdout, stderr // no stdin: /dev/null
	if errOut != nil {
		fmt.Fprintf(errOut, "notice: context %s: credentials from %s\n", p.context, p.cfg.Command)
		cmd.Stderr = io.MultiWriter(errOut, stderr) // its prompt on the terminal, as kubectl shows it
	}
	if interactive {
		cmd.Stdin = in
	}
	if err := cmd.Run(); err != nil {
		why := err.Error()
		if errors.Is(err, exec.ErrNotFound) && p.cfg.InstallHint != "" {
			why += " (" + strings.Join(strings.Fields(p.cfg.InstallHint), " ") + ")"
		}
		if last := stderr.lastLine(); last != "" {
			why += ": " + last
		}
		return "", p.fail(why)
	}
	cred := &clientauthentication.ExecCredential{}
	if _, _, err := execCodecs.UniversalDecoder(p.gv).Decode(stdout.Bytes(), nil, cred); err != nil {
		return "", p.fail("its output is not an ExecCredential: " + err.Error())
	}
	st := cred.Status
	if st == nil || st.Token == "" && (st.ClientCertificateData == "" || st.ClientKeyData == "") {
		return "", p.fail("it returned no token and no certificate with its key")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.token, p.cert, p.key, p.have, p.exp = st.Token, []byte(st.ClientCertificateData), []byte(st.ClientKeyData), true, time.Time{}
	if st.ExpirationTimestamp != nil {
		p.exp = st.ExpirationTimestamp.Time
	}
	return p.token, nil
}

func (p *Plugin) fail(why string) error {
	return &Error{Command: filepath.Base(p.cfg.Command), Why: why}
}

// Certificate is the client certificate and key the plugin gave, if any.
func (p *Plugin) Certificate() (cert, key []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cert, p.key
}

// Wrap is the transport wrapper adding the plugin's token.
func (p *Plugin) Wrap(rt http.RoundTripper) http.RoundTripper {
	return &pluginTransport{p: p, base: rt}
}

type pluginTransport struct {
	p    *Plugin
	base http.RoundTripper
}

func (t *pluginTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("Authorization") != "" {
		return t.base.RoundTrip(req)
	}
	token, err := t.p.Credential(false)
	if err != nil {
		return nil, err
	}
	if token != "" {
		req = utilnet.CloneRequest(req)
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := t.base.RoundTrip(req)
	if err == nil && resp.StatusCode == http.StatusUnauthorized {
		t.p.refused(token)
	}
	return resp, err
}

func (t *pluginTransport) WrappedRoundTripper() http.RoundTripper { return t.base }

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

// lastLine is the last line that says something.
func (t *tailBuffer) lastLine() string {
	lines := strings.Split(strings.TrimSpace(string(t.b)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
