package karmadatest

import (
	"context"
	"fmt"
	"io"
	"net/http"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// register makes the host's aggregator proxy group/v1alpha1 to the server
// on 127.0.0.1:port, as Karmada's own manifests do (an ExternalName Service
// in karmada-system and an APIService naming it).
func (k *Karmada) register(ctx context.Context, name, group string, port int) error {
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "karmada-system"},
		Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeExternalName, ExternalName: "127.0.0.1",
			Ports: []corev1.ServicePort{{Port: int32(port), TargetPort: intstr.FromInt32(int32(port))}}},
	}
	_, err := k.host.AdminClient().CoreV1().Services("karmada-system").Create(ctx, svc, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("service: %w", err)
	}
	apiService := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService",
		"metadata": map[string]any{"name": "v1alpha1." + group},
		"spec": map[string]any{
			"group": group, "version": "v1alpha1", "groupPriorityMinimum": int64(2000), "versionPriority": int64(10),
			// The servers' certificates are self-signed for the test.
			"insecureSkipTLSVerify": true,
			"service":               map[string]any{"name": name, "namespace": "karmada-system", "port": int64(port)},
		},
	}}
	if _, err := k.dyn.Resource(apiServiceGVR).Create(ctx, apiService, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("APIService: %w", err)
	}
	return nil
}

// get sends an admin GET to path on Karmada's API server.
func (k *Karmada) get(ctx context.Context, path string) (int, string, error) {
	rt, err := rest.TransportFor(k.host.AdminConfig())
	if err != nil {
		return 0, "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, k.host.Host()+path, nil)
	if err != nil {
		return 0, "", err
	}
	resp, err := (&http.Client{Transport: rt}).Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), err
}

// WriteKubeconfig writes a kubeconfig of the named contexts (each its own
// cluster and user) to path; the first name sorted is the current context.
func WriteKubeconfig(path string, contexts map[string]*rest.Config) error {
	cfg := clientcmdapi.NewConfig()
	for name, rc := range contexts {
		cfg.Clusters[name] = &clientcmdapi.Cluster{Server: rc.Host, CertificateAuthorityData: rc.CAData}
		cfg.AuthInfos[name] = &clientcmdapi.AuthInfo{ClientCertificateData: rc.CertData, ClientKeyData: rc.KeyData}
		cfg.Contexts[name] = &clientcmdapi.Context{Cluster: name, AuthInfo: name}
		if cfg.CurrentContext == "" || name < cfg.CurrentContext {
			cfg.CurrentContext = name
		}
	}
	return clientcmd.WriteToFile(*cfg, path)
}
