package auth

import (
	"errors"
	"strings"
)

// Errors callers branch on with errors.Is. The wrapped text adds detail but
// never a token or a code.
var (
	ErrNotLoggedIn       = errors.New("not logged in — run 'driftboard login'")
	ErrSessionExpired    = errors.New("session expired — log in again")
	ErrIdPUnavailable    = errors.New("identity provider unavailable")
	ErrAccessDenied      = errors.New("login was denied at the identity provider")
	ErrDeviceCodeExpired = errors.New("the login code expired before it was approved — start the login again")
	ErrLoginTimeout      = errors.New("login timed out waiting for the browser")
	ErrLoginFailed       = errors.New("login failed")
	ErrInvalidToken      = errors.New("token rejected")
	ErrNoDeviceFlow      = errors.New("the identity provider offers no device authorization endpoint")
	// ErrStoreCorrupt: the stored login cannot be read (a truncated file).
	// The board goes on reading as the kubeconfig user, restarts refused.
	ErrStoreCorrupt = errors.New("the stored login is unreadable")
	// ErrStoreUnsafe: a file of the store is a symlink out of it (or to
	// what is not the user's regular file); nothing is written through it.
	ErrStoreUnsafe = errors.New("the login store is not safe to write")
)

// authError is a sentinel plus detail, with every secret scrubbed from the
// detail at construction time.
type authError struct {
	kind error
	msg  string
}

func (e *authError) Error() string { return e.msg }
func (e *authError) Unwrap() error { return e.kind }

// newError builds "<kind>: <detail>" with the secrets removed from detail.
// cause is only used for its text: it is not kept, so nothing reachable
// through errors.Unwrap can leak what the scrub removed.
func newError(kind error, detail string, cause error, secrets ...string) error {
	msg := kind.Error()
	if detail != "" {
		msg += ": " + detail
	}
	if cause != nil {
		msg += ": " + cause.Error()
	}
	return &authError{kind: kind, msg: scrub(msg, secrets...)}
}

// scrub replaces every secret (of a plausible length) found in s.
func scrub(s string, secrets ...string) string {
	for _, sec := range secrets {
		if len(sec) >= 6 {
			s = strings.ReplaceAll(s, sec, "[redacted]")
		}
	}
	return s
}

// ClusterRejectedError says the Kubernetes API answered 401 to the IAM token:
// the cluster does not trust this issuer (or this audience).
type ClusterRejectedError struct {
	Host   string // the API server that refused
	Issuer string // the IAM issuer whose token it refused
}

func (e *ClusterRejectedError) Error() string {
	return "cluster " + e.Host + " does not trust IAM issuer " + e.Issuer +
		" (401 to the IAM token); its API server needs an AuthenticationConfiguration for this issuer"
}
