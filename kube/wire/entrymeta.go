package wire

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
type EntryMeta struct {
	Name, Namespace string
	UID             types.UID
	ResourceVersion string
	Annotations     map[string]string
}

func TrimmedMeta(m metav1.Object) EntryMeta {
	return EntryMeta{
		Name: m.GetName(), Namespace: intern(m.GetNamespace()),
		UID: m.GetUID(), ResourceVersion: m.GetResourceVersion(),
	}
}

// The entries are runtime.Objects without a kind: the caches hold one
// type each, and nothing reads it.
func (*EntryMeta) GetObjectKind() schema.ObjectKind { return schema.EmptyObjectKind }

// metav1.Object, as client-go's key functions, indexers and reflector read
// it (meta.Accessor). What an entry does not keep reads as empty and its
// setters drop the value.
func (m *EntryMeta) GetNamespace() string                { return m.Namespace }
func (m *EntryMeta) SetNamespace(s string)               { m.Namespace = s }
func (m *EntryMeta) GetName() string                     { return m.Name }
func (m *EntryMeta) SetName(s string)                    { m.Name = s }
func (m *EntryMeta) GetUID() types.UID                   { return m.UID }
func (m *EntryMeta) SetUID(u types.UID)                  { m.UID = u }
func (m *EntryMeta) GetResourceVersion() string          { return m.ResourceVersion }
func (m *EntryMeta) SetResourceVersion(s string)         { m.ResourceVersion = s }
func (m *EntryMeta) GetAnnotations() map[string]string   { return m.Annotations }
func (m *EntryMeta) SetAnnotations(a map[string]string)  { m.Annotations = a }
func (*EntryMeta) GetGenerateName() string               { return "" }
func (*EntryMeta) SetGenerateName(string)                {}
func (*EntryMeta) GetGeneration() int64                  { return 0 }
func (*EntryMeta) SetGeneration(int64)                   {}
func (*EntryMeta) GetSelfLink() string                   { return "" }
func (*EntryMeta) SetSelfLink(string)                    {}
func (*EntryMeta) GetCreationTimestamp() metav1.Time     { return metav1.Time{} }
func (*EntryMeta) SetCreationTimestamp(metav1.Time)      {}
func (*EntryMeta) GetDeletionTimestamp() *metav1.Time    { return nil }
func (*EntryMeta) SetDeletionTimestamp(*metav1.Time)     {}
func (*EntryMeta) GetDeletionGracePeriodSeconds() *int64 { return nil }
func (*EntryMeta) SetDeletionGracePeriodSeconds(*int64)  {}
func (*EntryMeta) GetLabels() map[string]string          { return nil }
func (*EntryMeta) SetLabels(map[string]string)           {}
func (*EntryMeta) GetFinalizers() []string               { return nil }
func (*EntryMeta) SetFinalizers([]string)                {}
func (*EntryMeta) GetOwnerReferences() []metav1.OwnerReference {
	return nil
}
func (*EntryMeta) SetOwnerReferences([]metav1.OwnerReference)    {}
func (*EntryMeta) GetManagedFields() []metav1.ManagedFieldsEntry { return nil }
func (*EntryMeta) SetManagedFields([]metav1.ManagedFieldsEntry)  {}

var _ metav1.Object = (*EntryMeta)(nil)
