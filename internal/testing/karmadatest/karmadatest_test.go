package karmadatest

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hanzoai/driftboard/internal/testing/testcluster"
)

// Two members' Apps read through the proxy, each annotated with its member.
func TestProxyServesMembersApps(t *testing.T) {
	k := Start(t)
	m1 := testcluster.Start(t, testcluster.Options{})
	m2 := testcluster.Start(t, testcluster.Options{})
	k.Join("member1", m1)
	k.Join("member2", m2)
	k.Cache("member1", "member2")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := m1.CreateApp(ctx, "default", "web", "web", "ghcr.io/hanzoai/web", "v1", 1); err != nil {
		t.Fatal(err)
	}
	if _, err := m2.CreateApp(ctx, "default", "web", "web", "ghcr.io/hanzoai/web", "v2", 1); err != nil {
		t.Fatal(err)
	}
	var got map[string]string
	for ctx.Err() == nil {
		status, body, err := k.get(ctx, ProxyPath+"/apis/hanzo.ai/v1/apps?resourceVersion=0")
		if err != nil || status != http.StatusOK {
			t.Fatalf("list through the proxy: HTTP %d %v: %.300s", status, err, body)
		}
		got = fromClusters(t, body)
		if len(got) == 2 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got["member1"] != "default/web" || got["member2"] != "default/web" {
		t.Fatalf("apps through the proxy by member = %v, want default/web from member1 and member2", got)
	}
	for name, pid := range k.PIDs() {
		t.Logf("%s: %s", name, rss(pid))
	}
}

func fromClusters(t *testing.T, body string) map[string]string {
	t.Helper()
	var list struct {
		Items []struct {
			Metadata struct {
				Namespace, Name string
				Annotations     map[string]string
			}
		}
	}
	if err := json.Unmarshal([]byte(body), &list); err != nil {
		t.Fatalf("decode list: %v", err)
	}
	out := map[string]string{}
	for _, it := range list.Items {
		out[it.Metadata.Annotations[CachedFromAnnotation]] = it.Metadata.Namespace + "/" + it.Metadata.Name
	}
	return out
}

func rss(pid int) string {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return err.Error()
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			return strings.TrimSpace(line)
		}
	}
	return "no VmRSS"
}

func TestMissingBinariesAreReported(t *testing.T) {
	t.Setenv(EnvVar, t.TempDir())
	if _, err := findBinDir(); err == nil {
		t.Error("findBinDir found Karmada's binaries in an empty folder")
	}
}
