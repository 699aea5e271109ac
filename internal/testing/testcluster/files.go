package testcluster

import (
	"fmt"
	"net/http"
	"os"
	"time"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// Every request is recorded at Metadata level so tests can read who did what.
const auditPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: Metadata
`

// frontProxyUser is the name in the certificate the API server presents to
// the extension servers it proxies to (Options.Aggregation).
const frontProxyUser = "front-proxy-client"

const emptyAuthenticationConfig = `apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt: []
`

// writeFiles makes the CA, certificates, keys, kubeconfig and policy files the
// processes read, and the admin clients.
func (c *Cluster) writeFiles() error {
	ca, err := newAuthority()
	if err != nil {
		return err
	}
	c.ca = ca
	servingCert, servingKey, err := ca.issueServing()
	if err != nil {
		return err
	}
	adminCert, adminKey, err := ca.issueClient("admin", []string{"system:masters"})
	if err != nil {
		return err
	}
	saKey, saPub, err := newServiceAccountKey()
	if err != nil {
		return err
	}
	files := map[string][]byte{
		"ca.crt":              ca.certPEM,
		"apiserver.crt":       servingCert,
		"apiserver.key":       servingKey,
		"service-account.key": saKey,
		"service-account.pub": saPub,
		"audit-policy.yaml":   []byte(auditPolicy),
	}
	if c.opts.Aggregation {
		proxyCert, proxyKey, err := ca.issueClient(frontProxyUser, nil)
		if err != nil {
			return err
		}
		files["front-proxy-client.crt"], files["front-proxy-client.key"] = proxyCert, proxyKey
	}
	if c.opts.OIDC {
		files["authentication-config.yaml"] = []byte(emptyAuthenticationConfig)
		if len(c.opts.AuthenticationConfig) > 0 {
			files["authentication-config.yaml"] = c.opts.AuthenticationConfig
		}
	}
	for name, data := range files {
		if err := os.WriteFile(c.path(name), data, 0o600); err != nil {
			return err
		}
	}
	for _, dir := range []string{"etcd-data", "flexvolume", "kubectl-cache"} {
		if err := os.MkdirAll(c.path(dir), 0o700); err != nil {
			return err
		}
	}
	c.admin = c.restConfig(adminCert, adminKey)
	if err := c.writeKubeconfig(adminCert, adminKey); err != nil {
		return err
	}
	if c.adminKube, err = kubernetes.NewForConfig(c.admin); err != nil {
		return err
	}
	if c.adminDyn, err = dynamic.NewForConfig(c.admin); err != nil {
		return err
	}
	probeTransport, err := rest.TransportFor(c.admin)
	if err != nil {
		return err
	}
	c.probe = &http.Client{Transport: probeTransport, Timeout: 5 * time.Second}
	return nil
}

func (c *Cluster) writeKubeconfig(certPEM, keyPEM []byte) error {
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["test"] = &clientcmdapi.Cluster{Server: c.host, CertificateAuthorityData: c.ca.certPEM}
	cfg.AuthInfos["admin"] = &clientcmdapi.AuthInfo{ClientCertificateData: certPEM, ClientKeyData: keyPEM}
	cfg.Contexts["test"] = &clientcmdapi.Context{Cluster: "test", AuthInfo: "admin", Namespace: "default"}
	cfg.CurrentContext = "test"
	if err := clientcmd.WriteToFile(*cfg, c.KubeconfigPath()); err != nil {
		return fmt.Errorf("write kubeconfig: %w", err)
	}
	return nil
}
