package kube

import (
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/watchlist"

	"github.com/hanzoai/driftboard/kube/cd"
	"github.com/hanzoai/driftboard/model"
)

// cdHost is what a cluster does for its CD watch (cd.Host): its informers
// report to the cluster's connection state like the others, its notices are
// the cluster's, its changes mark the cluster's rows.
type cdHost struct{ c *cluster }

var _ cd.Host = cdHost{}

func newCDWatcher(c *cluster) *cd.Watcher {
	var disc discovery.DiscoveryInterface
	clients := c.clients
	if p := clients.proxy; p != nil { // the kinds Karmada's API server knows
		clients = p.feeds.host
	}
	if clients.Kube != nil { // a fleet built only to test its rows has no clients
		disc = clients.Kube.Discovery()
	}
	return cd.New(cd.Config{Name: c.name, Discovery: disc, Dynamic: clients.Dynamic,
		Kinds: c.fleet.opts.CDKinds, AppGroup: appsGVR.Group, Host: cdHost{c}})
}

func (h cdHost) NewInformer(id, what string, list cd.ListFunc, watch cd.WatchFunc, transform cache.TransformFunc) (cache.SharedIndexInformer, error) {
	lw := &observedLW{id: id, conn: h.c.conn, list: list, watch: watch,
		unsupported: watchlist.DoesClientNotSupportWatchListSemantics(h.c.clients.Dynamic)}
	if p := h.c.clients.proxy; p != nil {
		var err error
		if lw, err = h.c.proxiedLW(what); err != nil {
			return nil, err
		}
	}
	// No row of its own: the watch's handlers re-evaluate the cluster's.
	inf, _, err := h.c.newInformer(informerSpec{what: what, example: &unstructuredExample, lw: lw,
		transform: transform, key: func(any) (string, string) { return "", "" }})
	return inf, err
}

func (h cdHost) SetNotes(topic string, texts []string) { h.c.conn.setNotes(topic, texts) }
func (h cdHost) SetNote(topic, text string)            { h.c.conn.setNote(topic, text) }
func (h cdHost) Forget(id string)                      { h.c.conn.forget(id) }
func (h cdHost) Signal()                               { h.c.fleet.signal() }
func (h cdHost) MarkRows(keys []model.Key)             { h.c.fleet.markDirtyKeys(keys) }
func (h cdHost) AppKeys() []model.Key                  { return h.c.crKeys() }
func (h cdHost) ErrText(err error) string              { return errText(err) }

// MarkEveryRow rebuilds every row of the cluster at the next snapshot, those
// seen while it syncs included: rows built when no CD kind was served must
// no longer say so once one is, even when its Applications are unreadable.
func (h cdHost) MarkEveryRow() {
	keys := h.c.appKeys()
	if h.c.prov.Open() {
		keys = append(keys, h.c.prov.KeysIn("")...)
	}
	h.c.fleet.markDirtyKeys(keys)
}
