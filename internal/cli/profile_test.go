package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestHeapProfileWrittenOncePerRun: the board writes the heap profile as
// it quits, while its fleet is live; the write at exit then keeps that one
// instead of replacing it with a heap whose caches are already released.
func TestHeapProfileWrittenOncePerRun(t *testing.T) {
	heapProfileWritten.Store(false)
	t.Cleanup(func() { heapProfileWritten.Store(false) })
	path := filepath.Join(t.TempDir(), "heap.out")
	getenv := func(k string) string {
		if k == heapProfileEnv {
			return path
		}
		return ""
	}
	var stderr bytes.Buffer
	writeHeapProfile(getenv, &stderr)
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		t.Fatalf("no heap profile written (%v); stderr %q", err, stderr.String())
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	writeHeapProfile(getenv, &stderr) // as the deferred stop at exit does
	if _, err := os.Stat(path); err == nil {
		t.Error("the heap profile was written a second time, replacing the board's")
	}
}
