package auth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/coreos/go-oidc/v3/oidc"
)

// keyFetchError marks a failure to read the issuer's signing keys (its
// JWKS): unreachable, or not answering 200. The key set wraps transport
// errors with %w, so recordingKeySet finds it with errors.As (the verifier
// above it formats errors with %v, hence the recording), and Verify tells
// "the IdP is unavailable" from "the token is invalid" without reading
// go-oidc's words.
type keyFetchError struct{ err error }

func (e *keyFetchError) Error() string { return e.err.Error() }
func (e *keyFetchError) Unwrap() error { return e.err }

// maxKeySet bounds a JWKS response (a few keys are a few KiB).
const maxKeySet = 1 << 20

// keyFetchTransport is the transport of the key set's client only: every
// failure it sees is a key fetch failure. A non-200 answer becomes an
// error here (go-oidc would report it in words only), and the body is read
// here so that a connection dropped mid-body is marked too.
type keyFetchTransport struct{ base http.RoundTripper }

func (t keyFetchTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, &keyFetchError{err}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, &keyFetchError{fmt.Errorf("%s answered %s", req.URL.Redacted(), resp.Status)}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxKeySet+1))
	switch {
	case err != nil:
		return nil, &keyFetchError{err}
	case len(body) > maxKeySet:
		return nil, &keyFetchError{fmt.Errorf("%s answered more than %d bytes", req.URL.Redacted(), maxKeySet)}
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

// signingAlgs are the algorithms go-oidc verifies; the issuer's discovery
// narrows them (as oidc.Provider does).
var signingAlgs = []string{oidc.RS256, oidc.RS384, oidc.RS512, oidc.ES256, oidc.ES384, oidc.ES512,
	oidc.PS256, oidc.PS384, oidc.PS512, oidc.EdDSA}

// newKeySet is the issuer's remote key set, cached across verifications,
// fetched through the session's HTTP client with marked failures.
func (s *Session) newKeySet(jwksURL string) oidc.KeySet {
	base := s.hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	hc := &http.Client{Transport: keyFetchTransport{base: base}, Timeout: s.hc.Timeout}
	return oidc.NewRemoteKeySet(oidc.ClientContext(context.Background(), hc), jwksURL)
}

// recordingKeySet is one verification's view of the cached key set: it
// keeps the key fetch failure (or the caller's deadline or cancel, which
// ends the fetch) that made the signature check fail.
type recordingKeySet struct {
	keys     oidc.KeySet
	fetchErr error
}

func (r *recordingKeySet) VerifySignature(ctx context.Context, jwt string) ([]byte, error) {
	payload, err := r.keys.VerifySignature(ctx, jwt)
	var kf *keyFetchError
	if errors.As(err, &kf) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		r.fetchErr = err
	}
	return payload, err
}

// verify checks a token of this session's issuer and client; fetchErr is
// set when the keys could not be read.
func (s *Session) verifyToken(ctx context.Context, ep *endpoints, raw string) (tok *oidc.IDToken, fetchErr, err error) {
	ks := &recordingKeySet{keys: ep.keys}
	v := oidc.NewVerifier(s.settings.Issuer, ks, &oidc.Config{
		ClientID: s.settings.ClientID, Now: s.now, SupportedSigningAlgs: ep.algs})
	tok, err = v.Verify(ctx, raw)
	if err != nil {
		return nil, ks.fetchErr, err
	}
	return tok, nil, nil
}
