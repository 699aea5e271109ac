package testcluster

import (
	"bytes"
	"encoding/json"
	"os"
	"time"
)

// AuditEvent is the part of an audit.k8s.io/v1 Event tests look at.
type AuditEvent struct {
	AuditID                  string         `json:"auditID"`
	Stage                    string         `json:"stage"`
	Verb                     string         `json:"verb"`
	RequestURI               string         `json:"requestURI"`
	User                     AuditUser      `json:"user"`
	ImpersonatedUser         *AuditUser     `json:"impersonatedUser,omitempty"`
	UserAgent                string         `json:"userAgent"`
	ObjectRef                *AuditObject   `json:"objectRef,omitempty"`
	ResponseStatus           *AuditResponse `json:"responseStatus,omitempty"`
	RequestReceivedTimestamp time.Time      `json:"requestReceivedTimestamp"`
}

// AuditUser is who made (or was impersonated in) a request.
type AuditUser struct {
	Username string   `json:"username"`
	Groups   []string `json:"groups"`
}

// AuditObject is the object a request was about.
type AuditObject struct {
	Resource    string `json:"resource"`
	Namespace   string `json:"namespace"`
	Name        string `json:"name"`
	APIGroup    string `json:"apiGroup"`
	APIVersion  string `json:"apiVersion"`
	Subresource string `json:"subresource"`
}

// AuditResponse is the response code of a request.
type AuditResponse struct {
	Code int `json:"code"`
}

// AuditEvents reads every event the API server has logged so far (all stages
// except RequestReceived, Metadata level, across API server restarts).
// Undecodable lines are skipped: a line the server is still writing, or the
// partial last line of an API server that was killed.
func (c *Cluster) AuditEvents() ([]AuditEvent, error) {
	data, err := os.ReadFile(c.path("audit.log"))
	if err != nil {
		return nil, err
	}
	var events []AuditEvent
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		var ev AuditEvent
		if json.Unmarshal(line, &ev) == nil {
			events = append(events, ev)
		}
	}
	return events, nil
}
