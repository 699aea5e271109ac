package bench

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
)

func TestMain(m *testing.M) {
	if os.Getenv(childKubeconfigEnv) != "" {
		os.Exit(runChild())
	}
	code := m.Run()
	printSummary()
	printBoardSummary()
	os.RemoveAll(boardBuildDir())
	os.Exit(code)
}

var (
	resultsMu sync.Mutex
	results   []result
)

func record(r result) {
	resultsMu.Lock()
	defer resultsMu.Unlock()
	results = append(results, r)
}

// printSummary prints every size measured in this run as one table.
func printSummary() {
	resultsMu.Lock()
	defer resultsMu.Unlock()
	if len(results) == 0 {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\ndriftboard fleet benchmark (real kube-apiserver, board in its own process)\n")
	for _, r := range results {
		b.WriteString(r.table())
	}
	fmt.Print(b.String())
}
