package wire

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// appList is a LIST page of Apps or Services, decoded.
type AppList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata"`
	Items           []*AppEntry
}

func (l *AppList) DeepCopyObject() runtime.Object {
	c := *l
	c.Items = append([]*AppEntry(nil), l.Items...) // entries are never mutated
	return &c
}

// bookmarkEntry carries what the reflector reads of a BOOKMARK: the
// resourceVersion and the initial-events-end annotation.
func BookmarkEntry(rv string, annotations map[string]string) *AppEntry {
	e := &AppEntry{}
	e.ResourceVersion, e.Annotations = rv, annotations
	return e
}
