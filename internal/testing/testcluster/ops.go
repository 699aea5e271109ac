package testcluster

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Kubectl runs the kubectl built by 'make testenv' (same version as the
// server) with the admin kubeconfig. It returns stdout; a failure's error
// carries stderr.
func (c *Cluster) Kubectl(ctx context.Context, args ...string) (string, error) {
	full := append([]string{"--kubeconfig=" + c.KubeconfigPath(), "--cache-dir=" + c.path("kubectl-cache")}, args...)
	cmd := exec.CommandContext(ctx, filepath.Join(c.binDir, "kubectl"), full...)
	cmd.Env = append(os.Environ(), "KUBECONFIG=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("kubectl %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// CreateNamespaces creates the namespaces (existing ones are fine); with
// controllers running it also waits for their default service account, which
// pods need before the ReplicaSet controller can create them.
func (c *Cluster) CreateNamespaces(names ...string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, name := range names {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
		_, err := c.adminKube.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			c.t.Fatalf("testcluster: create namespace %s: %v", name, err)
		}
	}
	if !c.opts.Controllers {
		return
	}
	for _, name := range names {
		if err := c.waitServiceAccount(ctx, name, c.controllerProcesses()); err != nil {
			c.fatalf("default service account in %s: %v", name, err)
		}
	}
}

var (
	reloadFailures = regexp.MustCompile(`(?m)^apiserver_authentication_config_controller_automatic_reloads_total\{[^}]*status="failure"[^}]*\} (\d+)`)
)

// SetAuthenticationConfig replaces the AuthenticationConfiguration
// (apiserver.config.k8s.io/v1) the API server watches, and waits until the
// server reports it applied (by content hash in its metrics) or rejected it.
// JWT issuers in it must already serve their discovery document and keys.
func (c *Cluster) SetAuthenticationConfig(config []byte) error {
	if !c.opts.OIDC {
		return errors.New("testcluster: start the cluster with Options{OIDC: true} to change authentication config")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	before, err := c.authReloadFailures(ctx)
	if err != nil {
		return err
	}
	// Write beside and rename, so the server never reads half a file.
	target := c.path("authentication-config.yaml")
	tmp := target + ".tmp"
	if err := os.WriteFile(tmp, config, 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, target); err != nil {
		return err
	}
	want := fmt.Sprintf(`hash="sha256:%x"`, sha256.Sum256(config))
	return poll(ctx, func() (bool, error) {
		status, metrics, err := c.get(ctx, "/metrics")
		if err != nil || status != 200 {
			return false, nil // the server may be restarting; keep asking
		}
		for _, line := range strings.Split(metrics, "\n") {
			if strings.HasPrefix(line, "apiserver_authentication_config_controller_last_config_info{") && strings.Contains(line, want) {
				return true, nil
			}
		}
		if failures(metrics) > before {
			return false, fmt.Errorf("testcluster: the API server rejected the authentication config; see %s", c.apiserver.logPath)
		}
		return false, nil
	})
}

func (c *Cluster) authReloadFailures(ctx context.Context) (int, error) {
	status, metrics, err := c.get(ctx, "/metrics")
	if err != nil {
		return 0, fmt.Errorf("read API server metrics: %w", err)
	}
	if status != 200 {
		return 0, fmt.Errorf("read API server metrics: HTTP %d", status)
	}
	return failures(metrics), nil
}

func failures(metrics string) int {
	total := 0
	for _, m := range reloadFailures.FindAllStringSubmatch(metrics, -1) {
		n, _ := strconv.Atoi(m[1])
		total += n
	}
	return total
}

func (c *Cluster) controllerProcesses() []*process {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*process(nil), c.others...)
}
