package auth

import (
	"context"
	"errors"
	"net"
	"time"

	"golang.org/x/oauth2"
)

// deviceLogin runs the device authorization grant (RFC 8628): show the code,
// poll at the server's interval (x/oauth2 handles authorization_pending and
// slow_down), and turn the terminal answers into typed errors.
func (s *Session) deviceLogin(ctx context.Context, ep *endpoints, o LoginOptions, note string) (*oauth2.Token, error) {
	if ep.oauth.DeviceAuthURL == "" {
		return nil, ErrNoDeviceFlow
	}
	cfg := s.oauthConfig(ep, "")
	hctx := s.withClient(ctx)
	da, err := cfg.DeviceAuth(hctx)
	if err != nil {
		return nil, loginError("start the device login", err)
	}
	secrets := []string{da.DeviceCode, da.UserCode}
	o.Prompt(Prompt{
		Kind:                    PromptDeviceCode,
		UserCode:                da.UserCode,
		VerificationURI:         da.VerificationURI,
		VerificationURIComplete: da.VerificationURIComplete,
		ExpiresAt:               da.Expiry,
		Note:                    note,
	})
	tok, err := cfg.DeviceAccessToken(hctx, da)
	if err == nil {
		return tok, nil
	}
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.Is(err, context.DeadlineExceeded) && !da.Expiry.IsZero() && !time.Now().Before(da.Expiry):
		// x/oauth2 bounds polling by the code's expiry
		return nil, ErrDeviceCodeExpired
	}
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		switch re.ErrorCode {
		case "access_denied":
			return nil, ErrAccessDenied
		case "expired_token":
			return nil, ErrDeviceCodeExpired
		}
	}
	return nil, loginError("device login", err, secrets...)
}

// loginError: unreachable IdP versus a refusal, without response bodies.
func loginError(doing string, err error, secrets ...string) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		status := 0
		if re.Response != nil {
			status = re.Response.StatusCode
		}
		if re.ErrorCode == "" && status >= 500 {
			return newError(ErrIdPUnavailable, doing+": "+oauthErrorText(re), nil, secrets...)
		}
		return newError(ErrLoginFailed, doing+": "+oauthErrorText(re), nil, secrets...)
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return newError(ErrIdPUnavailable, doing, err, secrets...)
	}
	return newError(ErrLoginFailed, doing, err, secrets...)
}
