package config

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// IAM says where the IAM identity may go.
type IAM struct {
	// Clusters are the API servers declared as trusting the IAM issuer: a
	// server URL (https://host[:port]), or a kubeconfig context name pinned
	// to its server (name=https://host[:port]). Only they receive the IAM
	// token; every other cluster is read with the kubeconfig identity and
	// refuses restarts. A bare context name trusts nothing from the file:
	// the token would follow whatever server a kubeconfig gives that name.
	Clusters []string `json:"clusters,omitempty"`
	// OneRun are the entries of --iam-cluster, also in Clusters: a bare
	// context name there is trusted for that run with the server that
	// run's kubeconfig gives it.
	OneRun []string `json:"-"`
}

// Trusts reports whether the context or its API server is declared as
// trusting the IAM issuer (see Trust).
func (i IAM) Trusts(context, server string) bool {
	ok, _ := i.Trust(context, server)
	return ok
}

// Trust reports whether the context (by pinned name) or its API server (by
// URL) is declared as trusting the IAM issuer. A URL matches on scheme,
// host, port (443 implied for https) and path; a name matches exactly. When
// an entry names the context but does not trust it (bare, or pinned to
// another server), why says so and what to write.
func (i IAM) Trust(context, server string) (ok bool, why string) {
	for _, entry := range i.Clusters {
		name, pin, pinned := splitPin(entry)
		switch {
		case pinned:
			if name != context {
				continue
			}
			if server != "" && sameServer(pin, server) {
				return true, ""
			}
			why = fmt.Sprintf("iam.clusters pins context %s to %s, but the kubeconfig gives it %s; "+
				"the IAM token goes only to the pinned server", context, pin, server)
		case strings.Contains(entry, "://"):
			if server != "" && sameServer(entry, server) {
				return true, ""
			}
		case entry == context:
			if slices.Contains(i.OneRun, entry) {
				return true, ""
			}
			if why == "" {
				why = fmt.Sprintf("iam.clusters names context %s without its server, so the IAM token would follow "+
					"any server a kubeconfig gives that name; pin it: %s=%s (the server this kubeconfig gives it)", context, context, server)
			}
		}
	}
	return false, why
}

// splitPin reads "name=https://server"; pinned is false for a URL or a
// bare name.
func splitPin(entry string) (name, server string, pinned bool) {
	name, server, found := strings.Cut(entry, "=")
	if !found || name == "" || strings.Contains(name, "://") || !strings.Contains(server, "://") {
		return "", "", false
	}
	return name, server, true
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
	if name, server, pinned := splitPin(entry); pinned {
		if strings.TrimSpace(name) != name {
			return fmt.Errorf("%q: the context name has spaces around it", entry)
		}
		entry = server
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
