package model

import "cmp"

// Key identifies one App on the board.
type Key struct {
	Cluster   string `json:"cluster"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
}

func (k Key) String() string { return k.Cluster + "/" + k.Namespace + "/" + k.Name }

// Compare orders keys by cluster, namespace, then name: the store's order,
// and the last tie-break of every sort.
func (k Key) Compare(o Key) int {
	if c := cmp.Compare(k.Cluster, o.Cluster); c != 0 {
		return c
	}
	if c := cmp.Compare(k.Namespace, o.Namespace); c != 0 {
		return c
	}
	return cmp.Compare(k.Name, o.Name)
}
