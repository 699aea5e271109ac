package e2e

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"testing"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// etcdGateway talks to the test cluster's etcd through its JSON gateway, to
// change what the API server stores behind its back (as another writer, a
// restore or a compaction would).
type etcdGateway struct {
	t   *testing.T
	url string
}

func etcdOf(t *testing.T, c *testcluster.Cluster) *etcdGateway {
	return &etcdGateway{t: t, url: c.EtcdURL()}
}

func (e *etcdGateway) call(path string, req, resp any) {
	e.t.Helper()
	body, _ := json.Marshal(req)
	r, err := http.Post(e.url+path, "application/json", bytes.NewReader(body))
	if err != nil {
		e.t.Fatalf("etcd %s: %v", path, err)
	}
	defer r.Body.Close()
	if r.StatusCode != http.StatusOK {
		var msg bytes.Buffer
		_, _ = msg.ReadFrom(r.Body)
		e.t.Fatalf("etcd %s: HTTP %d: %s", path, r.StatusCode, msg.String())
	}
	if resp != nil {
		if err := json.NewDecoder(r.Body).Decode(resp); err != nil {
			e.t.Fatalf("etcd %s: decode: %v", path, err)
		}
	}
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

type rangeResponse struct {
	Header struct {
		Revision string `json:"revision"`
	} `json:"header"`
	Kvs []struct {
		Value string `json:"value"`
	} `json:"kvs"`
}

// get returns the stored value of key and the store's current revision.
func (e *etcdGateway) get(key string) ([]byte, int64) {
	e.t.Helper()
	var resp rangeResponse
	e.call("/v3/kv/range", map[string]any{"key": b64(key)}, &resp)
	rev, _ := strconv.ParseInt(resp.Header.Revision, 10, 64)
	if len(resp.Kvs) == 0 {
		return nil, rev
	}
	v, err := base64.StdEncoding.DecodeString(resp.Kvs[0].Value)
	if err != nil {
		e.t.Fatal(err)
	}
	return v, rev
}

func (e *etcdGateway) put(key string, value []byte) {
	e.t.Helper()
	e.call("/v3/kv/put", map[string]any{"key": b64(key), "value": base64.StdEncoding.EncodeToString(value)}, nil)
}

func (e *etcdGateway) del(key string) {
	e.t.Helper()
	e.call("/v3/kv/deleterange", map[string]any{"key": b64(key)}, nil)
}

// compact drops every revision before the current one, so no watch can
// resume from an older resource version.
func (e *etcdGateway) compact() int64 {
	e.t.Helper()
	_, rev := e.get("/registry/namespaces/default")
	e.call("/v3/kv/compaction", map[string]any{"revision": strconv.FormatInt(rev, 10), "physical": true}, nil)
	return rev
}

// editApp rewrites a stored App (JSON, as the API server keeps custom
// resources) with edit applied.
func (e *etcdGateway) editApp(ns, name string, edit func(obj map[string]any)) {
	e.t.Helper()
	k := fmt.Sprintf("/registry/hanzo.ai/apps/%s/%s", ns, name)
	raw, _ := e.get(k)
	if raw == nil {
		e.t.Fatalf("etcd has no %s", k)
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		e.t.Fatalf("stored %s is not JSON: %v", k, err)
	}
	edit(obj)
	out, _ := json.Marshal(obj)
	e.put(k, out)
}
