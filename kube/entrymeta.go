package kube

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// entryMeta is the part of an object's metadata the informer cache and the
// handlers read: its key (namespace/name), UID and resourceVersion. An
// embedded metav1.ObjectMeta with TypeMeta was 264 bytes per entry, nearly
// all of it empty; this is 72. Annotations are only a BOOKMARK's: the
// reflector reads the initial-events-end annotation there.
type entryMeta struct {
	Name, Namespace string
	UID             types.UID
	ResourceVersion string
	Annotations     map[string]string
}

func trimmedMeta(m metav1.Object) entryMeta {
	return entryMeta{
		Name: m.GetName(), Namespace: intern(m.GetNamespace()),
		UID: m.GetUID(), ResourceVersion: m.GetResourceVersion(),
	}
}

// The entries are runtime.Objects without a kind: the caches hold one
// type each, and nothing reads it.
func (*entryMeta) GetObjectKind() schema.ObjectKind { return schema.EmptyObjectKind }

// metav1.Object, as client-go's key functions, indexers and reflector read
// it (meta.Accessor). What an entry does not keep reads as empty and its
// setters drop the value.
func (m *entryMeta) GetNamespace() string                { return m.Namespace }
func (m *entryMeta) SetNamespace(s string)               { m.Namespace = s }
func (m *entryMeta) GetName() string                     { return m.Name }
func (m *entryMeta) SetName(s string)                    { m.Name = s }
func (m *entryMeta) GetUID() types.UID                   { return m.UID }
func (m *entryMeta) SetUID(u types.UID)                  { m.UID = u }
func (m *entryMeta) GetResourceVersion() string          { return m.ResourceVersion }
func (m *entryMeta) SetResourceVersion(s string)         { m.ResourceVersion = s }
func (m *entryMeta) GetAnnotations() map[string]string   { return m.Annotations }
func (m *entryMeta) SetAnnotations(a map[string]string)  { m.Annotations = a }
func (*entryMeta) GetGenerateName() string               { return "" }
func (*entryMeta) SetGenerateName(string)                {}
func (*entryMeta) GetGeneration() int64                  { return 0 }
func (*entryMeta) SetGeneration(int64)                   {}
func (*entryMeta) GetSelfLink() string                   { return "" }
func (*entryMeta) SetSelfLink(string)                    {}
func (*entryMeta) GetCreationTimestamp() metav1.Time     { return metav1.Time{} }
func (*entryMeta) SetCreationTimestamp(metav1.Time)      {}
func (*entryMeta) GetDeletionTimestamp() *metav1.Time    { return nil }
func (*entryMeta) SetDeletionTimestamp(*metav1.Time)     {}
func (*entryMeta) GetDeletionGracePeriodSeconds() *int64 { return nil }
func (*entryMeta) SetDeletionGracePeriodSeconds(*int64)  {}
func (*entryMeta) GetLabels() map[string]string          { return nil }
func (*entryMeta) SetLabels(map[string]string)           {}
func (*entryMeta) GetFinalizers() []string               { return nil }
func (*entryMeta) SetFinalizers([]string)                {}
func (*entryMeta) GetOwnerReferences() []metav1.OwnerReference {
	return nil
}
func (*entryMeta) SetOwnerReferences([]metav1.OwnerReference)    {}
func (*entryMeta) GetManagedFields() []metav1.ManagedFieldsEntry { return nil }
func (*entryMeta) SetManagedFields([]metav1.ManagedFieldsEntry)  {}

var _ metav1.Object = (*entryMeta)(nil)
