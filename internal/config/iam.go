package config

import (
	"fmt"
	"net/url"
	"strings"
)

// IAM says where the IAM identity may go.
type IAM struct {
	// Clusters are the API servers declared as trusting the IAM issuer, by
	// kubeconfig context name or server URL (https://host[:port]). Only they
	// receive the IAM token; every other cluster is read with the
	// kubeconfig identity and refuses restarts.
	Clusters []string `json:"clusters,omitempty"`
}

// Trusts reports whether the context (by name) or its API server (by URL) is
// declared as trusting the IAM issuer. A URL entry matches on scheme, host
// and port (443 implied for https); a name entry matches the context name
// exactly.
func (i IAM) Trusts(context, server string) bool {
	for _, entry := range i.Clusters {
		if strings.Contains(entry, "://") {
			if server != "" && sameServer(entry, server) {
				return true
			}
		} else if entry == context {
			return true
		}
	}
	return false
}

func sameServer(a, b string) bool {
	ua, errA := url.Parse(a)
	ub, errB := url.Parse(b)
	if errA != nil || errB != nil {
		return false
	}
	return ua.Scheme == ub.Scheme && serverHost(ua) == serverHost(ub) &&
		strings.TrimSuffix(ua.Path, "/") == strings.TrimSuffix(ub.Path, "/")
}

func serverHost(u *url.URL) string {
	port := u.Port()
	if port == "" && u.Scheme == "https" {
		port = "443"
	}
	return strings.ToLower(u.Hostname()) + ":" + port
}

// CheckIAMCluster refuses entries that could never be trusted: empty ones
// and server URLs that are not https.
func CheckIAMCluster(entry string) error {
	if strings.TrimSpace(entry) == "" {
		return fmt.Errorf("empty entry")
	}
	if !strings.Contains(entry, "://") {
		return nil
	}
	u, err := url.Parse(entry)
	if err != nil || u.Host == "" {
		return fmt.Errorf("%q is not a server URL", entry)
	}
	if u.Scheme != "https" {
		return fmt.Errorf("%q is not https: the IAM token is only ever sent over verified TLS", entry)
	}
	return nil
}
