package podlogs

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

type failingReader struct {
	r   io.Reader
	err error
}

func (f failingReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		err = f.err
	}
	return n, err
}

type failingWriter struct{ err error }

func (f failingWriter) Write([]byte) (int, error) { return 0, f.err }

func opener(r io.Reader) Opener {
	return func(context.Context, string, *corev1.PodLogOptions) (io.ReadCloser, error) {
		return io.NopCloser(r), nil
	}
}

// copyLog writes each line with the pod's prefix, a long line cut and
// marked; a broken stream is named for its pod, a broken writer is not the
// pod's fault and comes back as is.
func TestCopyLogPrefixesCutsAndNamesWhoFailed(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var out strings.Builder
	long := strings.Repeat("y", maxLogLine+10)
	if err := copyLog(context.Background(), "web-1", nil, opener(strings.NewReader("a\n"+long+"\nb")), "[web-1] ", &out, &mu); err != nil {
		t.Fatal(err)
	}
	want := "[web-1] a\n[web-1] " + long[:maxLogLine] + lineCut + "\n[web-1] b\n"
	if out.String() != want {
		t.Errorf("copied %q…, want %q…", out.String()[:20], want[:20])
	}

	reset := errors.New("connection reset")
	err := copyLog(context.Background(), "web-2", nil, opener(failingReader{strings.NewReader("a\n"), reset}), "", io.Discard, &mu)
	if !errors.Is(err, reset) || !strings.Contains(err.Error(), "logs of pod web-2") {
		t.Errorf("stream error: %v", err)
	}

	full := errors.New("disk full")
	err = copyLog(context.Background(), "web-3", nil, opener(strings.NewReader("a\n")), "", failingWriter{full}, &mu)
	if err != full {
		t.Errorf("writer error: %v, want %v as is", err, full)
	}
}
