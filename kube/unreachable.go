package kube

import (
	"context"
	"errors"
	"net"
	"os"

	"github.com/hanzoai/driftboard/kube/execcred"
)

// netUnreachable reports whether err never reached the API server: the
// connection was refused, reset or timed out, or the name did not resolve.
// A TLS alert from the server (a net.OpError too) and any HTTP answer are
// the server's own refusals, not unreachability.
func netUnreachable(err error) bool {
	var dns *net.DNSError
	if errors.As(err, &dns) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) {
		return true
	}
	var op *net.OpError
	if errors.As(err, &op) {
		switch op.Op {
		case "dial", "read", "write":
			return true
		}
	}
	return false
}

// reasonOf is a setup failure as the cluster's line says it: a credential
// plugin's failure in its own words, without the request it stopped.
func reasonOf(err error) string {
	var pe *execcred.Error
	if errors.As(err, &pe) {
		return pe.Error()
	}
	return err.Error()
}
