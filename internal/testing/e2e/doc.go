// Package e2e holds driftboard's cross-package reliability tests: outages of
// the API server and etcd, expired watches, malformed Apps at scale, restart
// races, revoked RBAC, and terminal abuse, all against real components
// (internal/testing/testcluster). Everything is in the _test files.
package e2e
