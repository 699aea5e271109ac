package bench

import (
	"testing"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

func dynamicClient(tb testing.TB, cfg *rest.Config) dynamic.Interface {
	tb.Helper()
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return dyn
}
