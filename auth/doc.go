// Package auth gives the board an IAM identity: login with the device
// authorization grant or authorization code + PKCE on a loopback redirect, the
// ~/.hanzo token store shared with the hanzo CLI, refresh under a file lock
// (refresh tokens are single use), the verified principal, and an
// http.RoundTripper that carries the identity to the Kubernetes API.
//
// It never prints: prompts reach the caller through a callback, and no error
// text ever contains a token or a code.
package auth
