package cd

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Kind is an Application resource to look for, and the namespace its CD
// keeps Applications in when the identity may not list them cluster-wide.
type Kind struct {
	GVR       schema.GroupVersionResource
	Namespace string
}

// DefaultKinds are Hanzo CD's Application, then upstream Argo CD's.
var DefaultKinds = []Kind{
	{GVR: schema.GroupVersionResource{Group: "apps.hanzo.ai", Version: "v1alpha1", Resource: "applications"}, Namespace: "hanzo-cd"},
	{GVR: schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "applications"}, Namespace: "argocd"},
}

// ParseKind reads "applications.apps.hanzo.ai/v1alpha1" (resource.group/
// version, the version defaulting to v1alpha1) with an optional
// "@namespace" fallback.
func ParseKind(s string) (Kind, error) {
	rest, ns, _ := strings.Cut(s, "@")
	rg, version, ok := strings.Cut(rest, "/")
	if !ok {
		version = "v1alpha1"
	}
	resource, group, ok := strings.Cut(rg, ".")
	if !ok || resource == "" || group == "" || version == "" {
		return Kind{}, fmt.Errorf("CD kind %q: want resource.group[/version][@namespace], e.g. applications.apps.hanzo.ai/v1alpha1", s)
	}
	return Kind{GVR: schema.GroupVersionResource{Group: group, Version: version, Resource: resource}, Namespace: ns}, nil
}

// CRDs is the resource of CustomResourceDefinitions, which define the kinds.
var CRDs = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// CRDName is the CustomResourceDefinition that defines a kind.
func CRDName(k Kind) string { return k.GVR.Resource + "." + k.GVR.Group }

// KindOf is the watched Application kind of group.
func (cw *Watcher) KindOf(group string) (Kind, bool) {
	for _, k := range cw.cfg.Kinds {
		if k.GVR.Group == group {
			return k, true
		}
	}
	return Kind{}, false
}
