//go:build unix

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// Three kubeconfig users with exec credential plugins, against a real API
// server that accepts the token they print: one prompts on stderr (as
// kubelogin's device code does), one reads a code from stdin, one fails
// after printing its prompt. The built board, in a real pseudo-terminal,
// runs each once before it takes the screen, with the terminal (the prompts
// are shown there and the code typed is read); the two that worked are live
// on their credential without running again; no plugin's words are written
// into the board's frame; and the failing one's line says its plugin failed.
func TestCredentialPluginsRunBeforeTheBoard(t *testing.T) {
	t.Parallel()
	iss := testcluster.NewIssuer(t)
	c := testcluster.Start(t, testcluster.Options{AuthenticationConfig: iss.AuthenticationConfig("hanzo-cli", "iam:")})
	c.CreateNamespaces("hanzo")
	seedApps(t, c, "hanzo", names("svc", 3), "v1.0.0")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	binding := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "iam-alice"},
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "cluster-admin"},
		Subjects: []rbacv1.Subject{{APIGroup: "rbac.authorization.k8s.io", Kind: "User", Name: "iam:alice"}}}
	if _, err := c.AdminClient().RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	token := iss.Token(map[string]any{"sub": "alice", "aud": "hanzo-cli"}, time.Now().Add(time.Hour))
	must(t, os.WriteFile(filepath.Join(dir, "token"), []byte(token), 0o600))
	cred := `printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s"}}' "$(cat "$DIR/token")"`
	plugins := map[string]string{ // named so the header lists the working two first
		"prompt": `echo "To sign in, open https://login.example/device and enter PROMPT-CODE" >&2
echo run >> "$DIR/prompt.runs"
` + cred,
		"stdin": `printf 'STDIN-ASKS for the code: ' >&2
read code || { echo "no code entered" >&2; exit 1; }
[ "$code" = 123456 ] || { echo "wrong code $code" >&2; exit 1; }
echo run >> "$DIR/stdin.runs"
` + cred,
		"zbroken": `echo "BROKEN-PROMPT open https://login.example/device" >&2
echo "device code expired" >&2
exit 1`,
	}
	kc := clientcmdapi.NewConfig()
	kc.Clusters["test"] = &clientcmdapi.Cluster{Server: c.Host(), CertificateAuthorityData: c.AdminConfig().CAData}
	for name, body := range plugins {
		path := filepath.Join(dir, name+".sh")
		must(t, os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o700))
		kc.AuthInfos[name] = &clientcmdapi.AuthInfo{Exec: &clientcmdapi.ExecConfig{Command: path,
			APIVersion: "client.authentication.k8s.io/v1", InteractiveMode: clientcmdapi.IfAvailableExecInteractiveMode,
			Env: []clientcmdapi.ExecEnvVar{{Name: "DIR", Value: dir}}}}
		kc.Contexts[name] = &clientcmdapi.Context{Cluster: "test", AuthInfo: name}
	}
	kubeconfig := filepath.Join(dir, "kubeconfig")
	must(t, clientcmd.WriteToFile(*kc, kubeconfig))

	bin, err := builtBinary()
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	p := startTerminal(t, bin, []string{"--kubeconfig", kubeconfig, "--all-contexts", "--releases=off"},
		[]string{"HOME=" + home, "XDG_CONFIG_HOME=" + home, "XDG_CACHE_HOME=" + home, "XDG_STATE_HOME=" + home})
	p.awaitRaw("the stdin plugin's question on the terminal", "STDIN-ASKS for the code")
	p.keys("123456\n")
	p.awaitScreen("both working contexts live and the broken one's plugin failure on its line", func(s string) bool {
		return strings.Contains(s, "prompt live") && strings.Contains(s, "stdin live") &&
			strings.Contains(s, "zbroken failed — retrying (attempt") &&
			strings.Contains(s, "credential plugin zbroken.sh failed: exit status 1: device code expired")
	})
	p.awaitScreen("the broken plugin run again", func(s string) bool { return strings.Contains(s, "(attempt 2") })

	raw := p.raw()
	board := strings.Index(raw, ansi.SetModeAltScreenSaveCursor)
	if board < 0 {
		t.Fatalf("the board never took the screen: %q", raw)
	}
	before, after := raw[:board], raw[board:]
	for _, w := range []string{"PROMPT-CODE", "STDIN-ASKS", "BROKEN-PROMPT"} {
		if !strings.Contains(before, w) {
			t.Errorf("%q was not shown on the terminal before the board: %q", w, before)
		}
		if strings.Contains(after, w) {
			t.Errorf("%q was written after the board took the screen", w)
		}
	}
	for _, name := range []string{"prompt", "stdin"} {
		runs, err := os.ReadFile(filepath.Join(dir, name+".runs"))
		if err != nil || strings.Count(string(runs), "run") != 1 {
			t.Errorf("the %s plugin ran %d times (%v); want once, its credential kept", name, strings.Count(string(runs), "run"), err)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
