package testcluster

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestFreezeAPIServer: when FreezeAPIServer returns, no thread of the API
// server runs (kill alone returns while some still do), a request gets no
// answer, and after resume it does.
func TestFreezeAPIServer(t *testing.T) {
	c := Start(t, Options{})
	pid := c.APIServerPID()
	for round := range 20 {
		resume := c.FreezeAPIServer()
		if n, err := runningThreads(pid); err != nil || n != 0 {
			t.Fatalf("round %d: %d API server threads run after FreezeAPIServer returned (%v)", round, n, err)
		}
		resume()
	}

	resume := c.FreezeAPIServer()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if _, err := c.AdminClient().CoreV1().Namespaces().Get(ctx, "default", metav1.GetOptions{}); err == nil {
		t.Fatal("the frozen API server answered")
	}
	resume()
	ctx, cancel = context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.AdminClient().CoreV1().Namespaces().Get(ctx, "default", metav1.GetOptions{}); err != nil {
		t.Fatalf("the resumed API server: %v", err)
	}
}
