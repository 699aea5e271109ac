package kube

import (
	"flag"
	"io"

	"k8s.io/klog/v2"
)

// RedirectClientLogs sends client-go's own log lines (reflector warnings
// such as "watch ended with error") to w instead of stderr, where they would
// tear a full-screen terminal UI. The board reports the same facts as
// cluster states. Call it once, early.
func RedirectClientLogs(w io.Writer) {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	_ = fs.Set("logtostderr", "false")
	_ = fs.Set("alsologtostderr", "false")
	_ = fs.Set("stderrthreshold", "FATAL")
	klog.SetOutput(w)
}
