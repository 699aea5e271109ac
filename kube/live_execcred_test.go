package kube

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
	"github.com/hanzoai/driftboard/kube/execcred"
)

// TestPluginRunAfterDetachHasNoTerminal: a plugin that reads a code from
// stdin runs up front with the "terminal" and its credential is used; once
// the board has the screen and the credential expired, the plugin runs
// again with stdin closed and told it is not interactive, its stderr kept
// for the error (the cluster's line) and never written to the terminal.
func TestPluginRunAfterDetachHasNoTerminal(t *testing.T) {
	iss := testcluster.NewIssuer(t)
	c := testcluster.Start(t, testcluster.Options{AuthenticationConfig: iss.AuthenticationConfig("hanzo-cli", "iam:")})
	ctx := ctxT(t)
	binding := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "iam-alice"},
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "cluster-admin"},
		Subjects: []rbacv1.Subject{{APIGroup: "rbac.authorization.k8s.io", Kind: "User", Name: "iam:alice"}}}
	if _, err := c.AdminClient().RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	expiry := time.Now().Add(3 * time.Second)
	must(t, os.WriteFile(filepath.Join(dir, "token"), []byte(iss.Token(map[string]any{"sub": "alice", "aud": "hanzo-cli"}, time.Now().Add(time.Hour))), 0o600))
	script := `#!/bin/sh
echo "$KUBERNETES_EXEC_INFO" >> "$DIR/info"
printf 'code: ' >&2
read code || { echo "ASKED-AGAIN no code entered" >&2; exit 1; }
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s","expirationTimestamp":"` +
		expiry.UTC().Format(time.RFC3339) + `"}}' "$(cat "$DIR/token")"
`
	must(t, os.WriteFile(filepath.Join(dir, "plugin.sh"), []byte(script), 0o700))
	kc := clientcmdapi.NewConfig()
	kc.Clusters["test"] = &clientcmdapi.Cluster{Server: c.Host(), CertificateAuthorityData: c.AdminConfig().CAData}
	kc.AuthInfos["alice"] = &clientcmdapi.AuthInfo{Exec: &clientcmdapi.ExecConfig{Command: filepath.Join(dir, "plugin.sh"),
		APIVersion: "client.authentication.k8s.io/v1", InteractiveMode: clientcmdapi.IfAvailableExecInteractiveMode,
		Env: []clientcmdapi.ExecEnvVar{{Name: "DIR", Value: dir}}}}
	kc.Contexts["test"] = &clientcmdapi.Context{Cluster: "test", AuthInfo: "alice"}
	kc.CurrentContext = "test"
	path := filepath.Join(dir, "kubeconfig")
	must(t, clientcmd.WriteToFile(*kc, path))

	var term bytes.Buffer
	plugins := execcred.New(strings.NewReader("123456\n"), &term, true)
	clients, failed := Connect(ConnectOptions{Kubeconfig: path, Plugins: plugins})
	if len(failed) > 0 || len(clients) != 1 {
		t.Fatalf("connect: %+v", failed)
	}
	plugins.Detach()
	shown := term.String()
	if !strings.Contains(shown, "code: ") {
		t.Fatalf("the plugin's prompt was not shown on the terminal: %q", shown)
	}
	if user, err := WhoAmI(ctx, clients[0]); err != nil || user != "iam:alice" {
		t.Fatalf("as the plugin's token: %q, %v", user, err)
	}
	time.Sleep(time.Until(expiry) + 100*time.Millisecond)
	_, err := WhoAmI(ctx, clients[0])
	var pe *execcred.Error
	if !errors.As(err, &pe) || !strings.HasPrefix(pe.Error(), "credential plugin plugin.sh failed: exit status 1: ") ||
		!strings.HasSuffix(pe.Error(), "ASKED-AGAIN no code entered") {
		t.Fatalf("after the credential expired: %v; want the plugin's failure with its stderr", err)
	}
	// A reconnect (the login changed) while the board has the screen gets
	// the credential again without the terminal too.
	if clients, _ := Connect(ConnectOptions{Kubeconfig: path, Plugins: plugins}); len(clients) != 1 {
		t.Fatal("a reconnect whose plugin fails made no clients: the cluster's line could not say why")
	}
	if term.String() != shown {
		t.Errorf("a plugin run after Detach wrote to the terminal: %q", strings.TrimPrefix(term.String(), shown))
	}
	info, _ := os.ReadFile(filepath.Join(dir, "info"))
	runs := strings.Fields(string(info))
	if len(runs) != 3 || !strings.Contains(runs[0], `"interactive":true`) || strings.Contains(strings.Join(runs[1:], ""), `"interactive":true`) {
		t.Errorf("KUBERNETES_EXEC_INFO of the runs: %q; want interactive up front, not after", runs)
	}
}
