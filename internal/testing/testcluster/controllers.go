package testcluster

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// KwokNodeName is the fake node kwok manages; pods bound to it become Running
// and Ready without a kubelet.
const KwokNodeName = "kwok-node-0"

// The annotation kwok selects its nodes by (--manage-nodes-with-annotation-selector).
const kwokNodeAnnotation = "kwok.x-k8s.io/node"

// Stages that make the node Ready and pods Running/Ready, finished or gone at
// once; no heartbeats, since no node-lifecycle controller watches them.
var kwokStages = []string{
	"node/fast/node-initialize.yaml",
	"pod/fast/pod-ready.yaml",
	"pod/fast/pod-complete.yaml",
	"pod/fast/pod-delete.yaml",
}

// controllerList is what a rollout needs: workloads, service accounts (the
// ServiceAccount admission plugin wants "default"), namespace deletion and
// garbage collection of owned workloads.
const controllerList = "deployment-controller,replicaset-controller,statefulset-controller," +
	"serviceaccount-controller,namespace-controller,garbage-collector-controller"

func (c *Cluster) startControllers(ctx context.Context) error {
	if err := c.writeKwokConfig(); err != nil {
		return err
	}
	if err := c.createKwokNode(ctx); err != nil {
		return err
	}
	kubeconfig := "--kubeconfig=" + c.KubeconfigPath()
	procs := []*process{{
		name: "kube-controller-manager",
		args: []string{
			kubeconfig,
			"--controllers=" + controllerList,
			"--leader-elect=false",
			"--secure-port=0",
			"--flex-volume-plugin-dir=" + c.path("flexvolume"),
			"--service-account-private-key-file=" + c.path("service-account.key"),
			"--root-ca-file=" + c.path("ca.crt"),
			"--use-service-account-credentials=false",
			"--concurrent-deployment-syncs=10",
			"--concurrent-replicaset-syncs=10",
		},
	}, {
		name: "kube-scheduler",
		args: []string{kubeconfig, "--leader-elect=false", "--secure-port=0"},
	}, {
		name: "kwok",
		args: []string{
			kubeconfig,
			"--config=" + c.path("kwok.yaml"),
			"--manage-all-nodes=false",
			"--manage-nodes-with-annotation-selector=" + kwokNodeAnnotation + "=fake",
			"--cidr=10.244.0.0/16",
			"--node-ip=10.0.0.1",
		},
	}}
	for _, p := range procs {
		p.path = filepath.Join(c.binDir, p.name)
		p.logPath = c.path(p.name + ".log")
		if err := p.start(); err != nil {
			return err
		}
		c.mu.Lock()
		c.others = append(c.others, p)
		c.mu.Unlock()
	}
	// The node turning Ready proves kwok works; the default service account
	// proves the controller-manager does.
	if err := c.waitNodeReady(ctx, procs); err != nil {
		return fmt.Errorf("kwok node %s: %w", KwokNodeName, err)
	}
	return c.waitServiceAccount(ctx, "default", procs)
}

func (c *Cluster) writeKwokConfig() error {
	dir := stagesDir(c.binDir)
	var buf bytes.Buffer
	for _, name := range kwokStages {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return fmt.Errorf("kwok stage (run make testenv): %w", err)
		}
		buf.WriteString("---\n")
		buf.Write(bytes.TrimSpace(data))
		buf.WriteString("\n")
	}
	return os.WriteFile(c.path("kwok.yaml"), buf.Bytes(), 0o600)
}

func (c *Cluster) createKwokNode(ctx context.Context) error {
	capacity := corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse("1000"),
		corev1.ResourceMemory: resource.MustParse("1Ti"),
		corev1.ResourcePods:   resource.MustParse("1000"),
	}
	node := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name:        KwokNodeName,
			Annotations: map[string]string{kwokNodeAnnotation: "fake"},
			Labels: map[string]string{
				"type":                   "kwok",
				"kubernetes.io/hostname": KwokNodeName,
				"kubernetes.io/os":       "linux",
				"kubernetes.io/arch":     "amd64",
			},
		},
		Status: corev1.NodeStatus{Capacity: capacity, Allocatable: capacity},
	}
	_, err := c.adminKube.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("create node %s: %w", KwokNodeName, err)
	}
	return nil
}

func (c *Cluster) waitNodeReady(ctx context.Context, procs []*process) error {
	return poll(ctx, func() (bool, error) {
		if err := anyExited(procs); err != nil {
			return false, err
		}
		node, err := c.adminKube.CoreV1().Nodes().Get(ctx, KwokNodeName, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		for _, cond := range node.Status.Conditions {
			if cond.Type == corev1.NodeReady && cond.Status == corev1.ConditionTrue {
				err := c.untaintNode(ctx, node)
				if apierrors.IsConflict(err) { // kwok wrote the node's status meanwhile: read it again
					return false, nil
				}
				return err == nil, err
			}
		}
		return false, nil
	})
}

// untaintNode drops the not-ready taint the API server puts on new nodes:
// the node-lifecycle controller that would lift it is not run.
func (c *Cluster) untaintNode(ctx context.Context, node *corev1.Node) error {
	if len(node.Spec.Taints) == 0 {
		return nil
	}
	node.Spec.Taints = nil
	_, err := c.adminKube.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
	if err != nil {
		return fmt.Errorf("remove taints from node %s: %w", node.Name, err)
	}
	return nil
}

func (c *Cluster) waitServiceAccount(ctx context.Context, namespace string, procs []*process) error {
	return poll(ctx, func() (bool, error) {
		if err := anyExited(procs); err != nil {
			return false, err
		}
		_, err := c.adminKube.CoreV1().ServiceAccounts(namespace).Get(ctx, "default", metav1.GetOptions{})
		return err == nil, ignoreNotFound(err)
	})
}

func anyExited(procs []*process) error {
	for _, p := range procs {
		if ended, err := p.exited(); ended {
			return fmt.Errorf("%s exited: %v", p.name, err)
		}
	}
	return nil
}
