package e2e

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/testcluster"
)

// etcdGateway talks to the test cluster's etcd through its JSON gateway, to
// change what the API server stores behind its back (as another writer, a
// restore or a compaction would). testcluster does not expose etcd's URL, so
// it is read from the etcd process's command line.
type etcdGateway struct {
	t   *testing.T
	url string
}

func etcdOf(t *testing.T, c *testcluster.Cluster) *etcdGateway {
	t.Helper()
	args := processArgs("etcd", c.Dir())
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "--listen-client-urls="); ok {
			return &etcdGateway{t: t, url: strings.Split(v, ",")[0]}
		}
	}
	t.Fatalf("no etcd process with data under %s (args %q)", c.Dir(), args)
	return nil
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

// processArgs returns the arguments of the running binary exe whose command
// line mentions marker, or nil.
func processArgs(exe, marker string) []string {
	pid := findProcess(exe, marker)
	if pid == 0 {
		return nil
	}
	cmdline, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	return strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
}

func findProcess(exe, marker string) int {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		args := bytes.Split(cmdline, []byte{0})
		if len(args) > 0 && filepath.Base(string(args[0])) == exe && bytes.Contains(cmdline, []byte(marker)) {
			return pid
		}
	}
	return 0
}

// killAPIServer SIGKILLs the cluster's API server (a crash: no graceful
// close of watches) and waits until the process is gone.
func killAPIServer(t *testing.T, c *testcluster.Cluster) {
	t.Helper()
	killProcess(t, "kube-apiserver", c.Dir())
}

// killProcess SIGKILLs the cluster's process running exe and waits until it
// is gone, so testcluster can start it again.
func killProcess(t *testing.T, exe, marker string) {
	t.Helper()
	pid := findProcess(exe, marker)
	if pid == 0 {
		t.Fatalf("no %s process for this cluster", exe)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill %s %d: %v", exe, pid, err)
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join("/proc", strconv.Itoa(pid))); os.IsNotExist(err) {
			time.Sleep(200 * time.Millisecond) // reaped; let testcluster record the exit
			return
		}
	}
	t.Fatalf("%s %d still there 10 s after SIGKILL", exe, pid)
}
