package releasereader

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
)

// etagEntry is one remembered 200 answer: its validator and (slimmed) body.
type etagEntry struct {
	ETag string          `json:"etag"`
	Body json.RawMessage `json:"body"`
}

// etagTransport makes GET requests conditional. go-github has no cache of its
// own: this remembers each URL's ETag and body, sends If-None-Match, and on
// 304 replays the remembered body as a 200 so go-github decodes it as usual.
// An authorized 304 does not count against GitHub's primary rate limit.
type etagTransport struct {
	next   http.RoundTripper
	shrink func([]byte) []byte // keeps the cache file small; nil keeps bodies whole

	mu      sync.Mutex
	entries map[string]etagEntry

	sent, notModified atomic.Int64
}

// revalidatedHeader marks a response replayed from the cache after a 304.
const revalidatedHeader = "X-Driftboard-Revalidated"

func newETagTransport(next http.RoundTripper, shrink func([]byte) []byte) *etagTransport {
	if next == nil {
		next = http.DefaultTransport
	}
	return &etagTransport{next: next, shrink: shrink, entries: map[string]etagEntry{}}
}

func (t *etagTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet {
		t.sent.Add(1)
		return t.next.RoundTrip(req)
	}
	key := req.URL.String()
	t.mu.Lock()
	entry, known := t.entries[key]
	t.mu.Unlock()
	if known && entry.ETag != "" && req.Header.Get("If-None-Match") == "" {
		req = req.Clone(req.Context())
		req.Header.Set("If-None-Match", entry.ETag)
	}
	t.sent.Add(1)
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	switch {
	case resp.StatusCode == http.StatusNotModified && known:
		t.notModified.Add(1)
		_ = resp.Body.Close()
		replay := *resp
		replay.Status, replay.StatusCode = "200 OK", http.StatusOK
		replay.Header = resp.Header.Clone()
		replay.Header.Set("Content-Type", "application/json")
		replay.Header.Set(revalidatedHeader, "1")
		replay.Body = io.NopCloser(bytes.NewReader(entry.Body))
		replay.ContentLength = int64(len(entry.Body))
		return &replay, nil
	case resp.StatusCode == http.StatusOK && resp.Header.Get("ETag") != "":
		body, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
		_ = resp.Body.Close()
		if err != nil {
			return nil, err
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		kept := body
		if t.shrink != nil {
			kept = t.shrink(body)
		}
		if json.Valid(kept) {
			t.mu.Lock()
			t.entries[key] = etagEntry{ETag: resp.Header.Get("ETag"), Body: kept}
			t.mu.Unlock()
		}
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
		t.mu.Lock()
		delete(t.entries, key) // the resource went away; its validator is worthless
		t.mu.Unlock()
	}
	return resp, nil
}

// snapshot copies the entries whose URL keep(url) accepts, for the cache file.
func (t *etagTransport) snapshot(keep func(url string) bool) map[string]etagEntry {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make(map[string]etagEntry, len(t.entries))
	for k, v := range t.entries {
		if keep == nil || keep(k) {
			out[k] = v
		}
	}
	return out
}

func (t *etagTransport) load(entries map[string]etagEntry) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for k, v := range entries {
		if v.ETag != "" && json.Valid(v.Body) {
			t.entries[k] = v
		}
	}
}

// slimRelease is the part of a GitHub release object driftboard reads. The
// cache keeps only these fields: release notes and uploader objects can be
// tens of kilobytes per release.
type slimRelease struct {
	ID          int64       `json:"id"`
	URL         string      `json:"url,omitempty"`
	HTMLURL     string      `json:"html_url"`
	TagName     string      `json:"tag_name"`
	Name        string      `json:"name,omitempty"`
	Draft       bool        `json:"draft"`
	Prerelease  bool        `json:"prerelease"`
	CreatedAt   string      `json:"created_at,omitempty"`
	PublishedAt string      `json:"published_at,omitempty"`
	Assets      []slimAsset `json:"assets"`
}

// slimAsset keeps only the id: the board counts assets, and a releases list
// of 100 releases with 20 assets each stays a few kilobytes.
type slimAsset struct {
	ID int64 `json:"id"`
}

// shrinkRelease slims a release object or a releases list (an array).
func shrinkRelease(body []byte) []byte {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var rs []slimRelease
		if json.Unmarshal(trimmed, &rs) != nil {
			return body
		}
		for i := range rs {
			if rs[i].Assets == nil {
				rs[i].Assets = []slimAsset{}
			}
		}
		return marshalOr(rs, body)
	}
	var r slimRelease
	if json.Unmarshal(body, &r) != nil || r.TagName == "" {
		return body
	}
	if r.Assets == nil {
		r.Assets = []slimAsset{}
	}
	return marshalOr(r, body)
}

func marshalOr(v any, fallback []byte) []byte {
	out, err := json.Marshal(v)
	if err != nil {
		return fallback
	}
	return out
}
