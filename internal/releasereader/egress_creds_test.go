package releasereader

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/authn"
)

// askedKeychain hands out credentials and records for which registry.
type askedKeychain struct{ asked []string }

func (k *askedKeychain) Resolve(r authn.Resource) (authn.Authenticator, error) {
	k.asked = append(k.asked, r.RegistryStr())
	return &authn.Basic{Username: "viewer", Password: "s3cret"}, nil
}

// A registry whose token realm points at another, internal host: the
// viewer's credentials (looked up for the registry's own host) are not
// sent there; the guard refuses the realm before connecting.
func TestRegistryCredentialsStayWithTheirHost(t *testing.T) {
	realmAddr, realmConns := recordingListener(t)
	// By name: go-containerregistry itself refuses a realm that is a private
	// address literal; a name that resolves to one is this guard's to catch.
	realm := "localhost:" + realmAddr[strings.LastIndex(realmAddr, ":")+1:]
	var authSeen atomic.Int32
	reg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			authSeen.Add(1)
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="https://`+realm+`/token",service="registry"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer reg.Close()
	host := strings.TrimPrefix(reg.URL, "http://")
	kc := &askedKeychain{}
	clock := newFakeClock()
	_, gh := newFakeGitHub(t, clock)
	r := newTestReader(t, gh.URL, clock, func(o *Options) {
		o.Registry, o.Keychain = true, kc
		o.InsecureRegistries = []string{host} // the registry itself is named
		o.Repos = []RepoMapping{{Image: host + "/*", GitHub: ""}}
	})
	image := host + "/acme/api"
	r.Track([]RepoTag{{image, "v1.0.0"}})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	r.refresh(ctx)
	note := r.Lookup(image, "v1.0.0").DigestNote
	if !strings.Contains(note, "registry host not allowed: "+realm) {
		t.Errorf("the row says %q, want the realm host refused", note)
	}
	if n := realmConns.Load(); n != 0 {
		t.Fatalf("%d connections reached the realm on an internal address", n)
	}
	if authSeen.Load() != 0 {
		t.Error("credentials were sent to the registry before it asked for a token")
	}
	for _, h := range kc.asked {
		if h != host {
			t.Errorf("credentials looked up for %q, not the registry's own host %q", h, host)
		}
	}
}
