package testcluster

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// LogNodeName is the node whose pods have logs (see StartLogNode).
const LogNodeName = "kwok-logs-0"

// StartLogNode adds a second fake node, run by its own kwok, that serves
// container logs the way a kubelet does, so the API server's pods/log
// proxies to it: every container of a pod on that node prints the file
// current (CRI log format, followed as it grows), and previous for
// ?previous=true. Place pods with spec.nodeName LogNodeName. Needs
// Controllers. The shared node and kwok are untouched.
func (c *Cluster) StartLogNode(ctx context.Context, current, previous string) error {
	ports, err := freePorts(1)
	if err != nil {
		return err
	}
	port := ports[0]
	var cfg strings.Builder
	for _, name := range []string{"node/fast/node-initialize.yaml", "pod/fast/pod-ready.yaml", "pod/fast/pod-delete.yaml"} {
		data, err := os.ReadFile(filepath.Join(stagesDir(c.binDir), name))
		if err != nil {
			return fmt.Errorf("kwok stage (run make testenv): %w", err)
		}
		cfg.WriteString("---\n" + strings.TrimSpace(string(data)) + "\n")
	}
	fmt.Fprintf(&cfg, `---
apiVersion: kwok.x-k8s.io/v1alpha1
kind: ClusterLogs
metadata: {name: all}
spec:
  selector: {}
  logs:
  - logsFile: %q
    previousLogsFile: %q
    follow: true
`, current, previous)
	if err := os.WriteFile(c.path("kwok-logs.yaml"), []byte(cfg.String()), 0o600); err != nil {
		return err
	}
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: LogNodeName,
		Annotations: map[string]string{kwokNodeAnnotation: "logs"},
		Labels:      map[string]string{"type": "kwok", "kubernetes.io/hostname": LogNodeName}}}
	if _, err := c.adminKube.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create node %s: %w", LogNodeName, err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	p := &process{name: "kwok-logs", path: filepath.Join(c.binDir, "kwok"), logPath: c.path("kwok-logs.log"), args: []string{
		"--kubeconfig=" + c.KubeconfigPath(), "--config=" + c.path("kwok-logs.yaml"),
		"--manage-all-nodes=false", "--manage-nodes-with-annotation-selector=" + kwokNodeAnnotation + "=logs",
		"--cidr=10.245.0.0/16", "--node-ip=127.0.0.1", fmt.Sprintf("--node-port=%d", port), "--server-address=" + addr,
		"--tls-cert-file=" + c.path("apiserver.crt"), "--tls-private-key-file=" + c.path("apiserver.key"),
	}}
	if err := p.start(); err != nil {
		return err
	}
	c.mu.Lock()
	c.others = append(c.others, p)
	c.mu.Unlock()
	wait, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return poll(wait, func() (bool, error) {
		n, err := c.adminKube.CoreV1().Nodes().Get(wait, LogNodeName, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		return n.Status.DaemonEndpoints.KubeletEndpoint.Port == int32(port), nil
	})
}
