package testcluster

import (
	"context"
	_ "embed"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"
)

var (
	// AppsGVR is the App resource (apps.hanzo.ai), never to be confused with
	// the CD tool's applications.apps.hanzo.ai.
	AppsGVR = schema.GroupVersionResource{Group: "hanzo.ai", Version: "v1", Resource: "apps"}
	// ServicesGVR is the operator's sibling Service resource (services.hanzo.ai).
	ServicesGVR = schema.GroupVersionResource{Group: "hanzo.ai", Version: "v1", Resource: "services"}

	// HanzoCDApplicationsGVR is Hanzo CD's Application resource; its short
	// names app/apps collide with the App's.
	HanzoCDApplicationsGVR = schema.GroupVersionResource{Group: "apps.hanzo.ai", Version: "v1alpha1", Resource: "applications"}
	// ArgoApplicationsGVR is upstream Argo CD's Application resource.
	ArgoApplicationsGVR = schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "applications"}

	crdGVR = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
)

//go:embed crds/apps.hanzo.ai.yaml
var appsCRD []byte

//go:embed crds/services.hanzo.ai.yaml
var servicesCRD []byte

//go:embed crds/applications.apps.hanzo.ai.yaml
var hanzoCDApplicationsCRD []byte

//go:embed crds/applications.argoproj.io.yaml
var argoApplicationsCRD []byte

// AppsCRD returns the App CRD manifest the cluster installs.
func AppsCRD() []byte { return append([]byte(nil), appsCRD...) }

// InstallServiceCRD installs services.hanzo.ai and waits until it is served.
func (c *Cluster) InstallServiceCRD() {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.installCRD(ctx, servicesCRD); err != nil {
		c.fatalf("install Service CRD: %v", err)
	}
}

// InstallApplicationCRD installs the CD Application CRD of group
// (apps.hanzo.ai for Hanzo CD, argoproj.io for upstream Argo CD) and waits
// until it is served. Clusters start without one, so a test that installs
// none sees a cluster where no Application kind is served.
func (c *Cluster) InstallApplicationCRD(group string) {
	c.t.Helper()
	manifests := map[string][]byte{
		HanzoCDApplicationsGVR.Group: hanzoCDApplicationsCRD,
		ArgoApplicationsGVR.Group:    argoApplicationsCRD,
	}
	manifest, ok := manifests[group]
	if !ok {
		c.fatalf("no Application CRD for group %q", group)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.installCRD(ctx, manifest); err != nil {
		c.fatalf("install Application CRD %s: %v", group, err)
	}
}

// installCRD creates a CRD with the dynamic client (no apiextensions client
// module needed), waits for Established, then until its resource answers.
func (c *Cluster) installCRD(ctx context.Context, manifest []byte) error {
	obj := &unstructured.Unstructured{}
	if err := yaml.Unmarshal(manifest, &obj.Object); err != nil {
		return fmt.Errorf("parse CRD manifest: %w", err)
	}
	crds := c.adminDyn.Resource(crdGVR)
	if _, err := crds.Create(ctx, obj, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create CRD %s: %w", obj.GetName(), err)
	}
	err := poll(ctx, func() (bool, error) {
		got, err := crds.Get(ctx, obj.GetName(), metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		conds, _, _ := unstructured.NestedSlice(got.Object, "status", "conditions")
		for _, cond := range conds {
			m, _ := cond.(map[string]any)
			if m["type"] == "Established" && m["status"] == "True" {
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		return fmt.Errorf("wait for CRD %s to be established: %w", obj.GetName(), err)
	}
	group, _, _ := unstructured.NestedString(obj.Object, "spec", "group")
	plural, _, _ := unstructured.NestedString(obj.Object, "spec", "names", "plural")
	versions, _, _ := unstructured.NestedSlice(obj.Object, "spec", "versions")
	version := "v1"
	if len(versions) > 0 {
		if v, ok := versions[0].(map[string]any)["name"].(string); ok {
			version = v
		}
	}
	gvr := schema.GroupVersionResource{Group: group, Version: version, Resource: plural}
	return poll(ctx, func() (bool, error) {
		_, err := c.adminDyn.Resource(gvr).Namespace("default").List(ctx, metav1.ListOptions{Limit: 1})
		return err == nil, ignoreNotFound(err)
	})
}
