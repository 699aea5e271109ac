package testcluster

import (
	"context"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

func TestSetAuthenticationConfigTakesEffectLive(t *testing.T) {
	issuer := NewIssuer(t)
	c := Start(t, Options{OIDC: true})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	cfg := c.AdminConfig()
	cfg.CertData, cfg.KeyData = nil, nil
	cfg.BearerToken = issuer.Token(map[string]any{"sub": "alice", "aud": "driftboard-test"}, time.Now().Add(time.Hour))
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	whoami := func() (string, error) {
		r, err := client.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
		if err != nil {
			return "", err
		}
		return r.Status.UserInfo.Username, nil
	}
	if _, err := whoami(); !apierrors.IsUnauthorized(err) {
		t.Fatalf("token accepted before its issuer was configured: err = %v", err)
	}

	if err := c.SetAuthenticationConfig([]byte("apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\njwt: [{issuer: {}}]\n")); err == nil {
		t.Error("an invalid authentication config was reported as applied")
	}
	config := issuer.AuthenticationConfig("driftboard-test", "oidc:")
	if err := c.SetAuthenticationConfig(config); err != nil {
		t.Fatal(err)
	}
	user, err := whoami()
	if err != nil {
		t.Fatalf("token refused after SetAuthenticationConfig: %v", err)
	}
	if user != "oidc:alice" {
		t.Errorf("username = %q, want oidc:alice", user)
	}
}

func TestSetAuthenticationConfigNeedsOIDC(t *testing.T) {
	c := &Cluster{opts: Options{}}
	if err := c.SetAuthenticationConfig([]byte(emptyAuthenticationConfig)); err == nil {
		t.Error("SetAuthenticationConfig succeeded on a cluster started without OIDC")
	}
}

func TestMissingBinariesAreReported(t *testing.T) {
	t.Setenv(EnvVar, t.TempDir())
	if _, err := findBinDir(); err == nil {
		t.Error("findBinDir found binaries in an empty folder")
	}
}
