package releasereader

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"

	"github.com/hanzoai/driftboard/model"
)

// startRegistry runs Debian's docker-registry (the CNCF distribution
// registry) on a free loopback port with storage in a temp dir, and returns
// its host:port.
func startRegistry(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("DRIFTBOARD_REGISTRY_BIN")
	if bin == "" {
		bin = "docker-registry"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		t.Fatalf("the registry binary %q is missing: apt-get install docker-registry (Debian package docker-registry) or set DRIFTBOARD_REGISTRY_BIN: %v", bin, err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	dir := t.TempDir()
	config := fmt.Sprintf(`version: 0.1
log:
  level: error
storage:
  filesystem:
    rootdirectory: %s
  delete:
    enabled: true
http:
  addr: %s
`, filepath.Join(dir, "data"), addr)
	cfgPath := filepath.Join(dir, "config.yml")
	if err := os.WriteFile(cfgPath, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path, "serve", cfgPath)
	logs := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", path, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/v2/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return addr
			}
		}
		select {
		case err := <-exited:
			t.Fatalf("docker-registry exited: %v\n%s", err, logs)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("docker-registry not ready on %s: %v\n%s", addr, err, logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// push writes a fresh random image under ref and returns its digest.
func push(t *testing.T, ref string) string {
	t.Helper()
	img, err := random.Image(512, 1)
	if err != nil {
		t.Fatal(err)
	}
	tag, err := name.NewTag(ref)
	if err != nil {
		t.Fatal(err)
	}
	if err := remote.Write(tag, img); err != nil {
		t.Fatalf("push %s: %v", ref, err)
	}
	d, err := img.Digest()
	if err != nil {
		t.Fatal(err)
	}
	return d.String()
}

func TestRegistryDigestsAgainstRealRegistry(t *testing.T) {
	t.Setenv("DOCKER_CONFIG", t.TempDir()) // anonymous: no local docker credentials
	host := startRegistry(t)
	clock := newFakeClock()
	gh, srv := newFakeGitHub(t, clock)
	gh.set("acme/web", fakeRelease{tag: "v2.1.0", assets: 2})

	// One registry under two names: 127.0.0.1:port is mapped to no GitHub
	// repository (digests and registry latest only), localhost:port maps by
	// its path (releases from the fake GitHub, digests from the registry).
	_, port, _ := net.SplitHostPort(host)
	ghHost := "localhost:" + port
	api := host + "/acme/api"
	web := ghHost + "/acme/web"
	digest1 := push(t, api+":v1.0.0")
	for _, tag := range []string{"v1.2.0", "v1.10.0", "latest", "v2.0.0-rc.1"} {
		push(t, api+":"+tag)
	}
	webDigest := push(t, web+":v2.1.0")

	r := newTestReader(t, srv.URL, clock, func(o *Options) {
		o.Registry, o.RegistryLatest = true, true
		o.Repos = []RepoMapping{{Image: host + "/*", GitHub: ""}}
		o.InsecureRegistries = []string{host, ghHost} // a local test registry, over http

	})
	r.Track([]RepoTag{{api, "v1.0.0"}, {api, "v9.9.9"}, {web, "v2.1.0"}})
	r.refresh(context.Background())

	got := r.Lookup(api, "v1.0.0")
	if got.TagDigest != digest1 || got.LatestTag != "v1.10.0" || got.State != model.ReleaseNotLooked ||
		got.Detail != "no GitHub repository maps to "+api+" (releases.repos): not looked up; latest tag from the registry" {
		t.Fatalf("Lookup(api, v1.0.0) = %+v, want tag digest %s, latest v1.10.0 from the registry", got, digest1)
	}
	if got := r.Lookup(web, "v2.1.0"); got.State != model.ReleaseFound || got.TagDigest != webDigest || got.LatestTag != "v2.1.0" {
		t.Errorf("Lookup(web) = %+v, want the GitHub release and digest %s", got, webDigest)
	}
	if got := r.Lookup(api, "v9.9.9"); got.TagDigest != "" || got.DigestNote != "registry: tag v9.9.9 not found in "+api {
		t.Errorf("Lookup(api, v9.9.9) = %+v, want the missing tag named", got)
	}
	running := []string{api + "@" + digest1, "docker-pullable://" + api + "@" + digest1}
	if note := model.CheckDigests(got.TagDigest, running).Note(); note != "" {
		t.Errorf("pods on the tag's digest: note %q, want none", note)
	}

	// Someone pushes a new image under the same tag: the pods still run the
	// old digest, which no tag comparison can see.
	digest2 := push(t, api+":v1.0.0")
	clock.Advance(11 * time.Minute)
	r.refresh(context.Background())
	got = r.Lookup(api, "v1.0.0")
	if got.TagDigest != digest2 {
		t.Fatalf("after the tag moved: tag digest %s, want %s", got.TagDigest, digest2)
	}
	check := model.CheckDigests(got.TagDigest, running)
	if !check.Differs() || !strings.HasPrefix(check.Note(), "running digest ≠ tag digest") {
		t.Errorf("moved tag: %+v note %q, want running digest ≠ tag digest", check, check.Note())
	}
	// Half the pods restarted onto the new image: mixed and still drifting.
	check = model.CheckDigests(got.TagDigest, append(running, api+"@"+digest2))
	if !check.Mixed() || !check.Differs() {
		t.Errorf("mixed pods: %+v", check)
	}
}

func TestRegistryUnreachableIsAnError(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens here now
	clock := newFakeClock()
	_, srv := newFakeGitHub(t, clock)
	r := newTestReader(t, srv.URL, clock, func(o *Options) { o.Registry, o.InsecureRegistries = true, []string{addr} })
	r.Track([]RepoTag{{addr + "/acme/api", "v1.0.0"}})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r.refresh(ctx)
	got := r.Lookup(addr+"/acme/api", "v1.0.0")
	if got.TagDigest != "" || !strings.Contains(got.Detail, "registry: ") {
		t.Errorf("unreachable registry: %+v, want the registry error in the detail", got)
	}
}
