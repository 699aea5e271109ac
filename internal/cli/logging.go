package cli

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"

	"k8s.io/klog/v2"

	"github.com/hanzoai/driftboard/internal/termtext"
)

// setupLogging sends driftboard's slog output and client-go's klog output to
// --log-file. Without a file, one-shot commands log to stderr only when -v is
// given; the board (screen == true) never logs where the user is looking.
func (a *app) setupLogging(screen bool) error {
	var w io.Writer
	switch {
	case a.opts.logFile != "":
		f, err := os.OpenFile(a.opts.logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return fmt.Errorf("open log file: %w", err)
		}
		a.closers = append(a.closers, func() { _ = f.Close() })
		w = termtext.NewWriter(f) // someone may tail -f it
	case !screen && a.opts.verbosity > 0:
		w = a.streams.Err
	}
	handler := slog.DiscardHandler
	if w != nil {
		handler = slog.NewTextHandler(w, &slog.HandlerOptions{
			Level:       levelFor(a.opts.verbosity),
			ReplaceAttr: redact,
		})
	}
	a.log = slog.New(handler)
	routeKlog(a.log, a.opts.verbosity)
	// Leave klog silent when this invocation ends (tests run several in one
	// process; the file is closed by then).
	a.closers = append([]func(){func() { routeKlog(slog.New(slog.DiscardHandler), 0) }}, a.closers...)
	return nil
}

// levelFor maps -v to a slog level: 0 warnings, 1 info, and each further
// level one step lower, which is how logr (client-go's V(n)) maps onto slog.
func levelFor(v int) slog.Level {
	if v <= 0 {
		return slog.LevelWarn
	}
	return slog.LevelInfo - slog.Level(v)
}

// routeKlog makes klog (client-go's logger) write through l and never to
// stderr, at verbosity v.
func routeKlog(l *slog.Logger, v int) {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	_ = fs.Set("logtostderr", "false")
	_ = fs.Set("alsologtostderr", "false")
	_ = fs.Set("stderrthreshold", "FATAL")
	_ = fs.Set("v", strconv.Itoa(max(v, 0)))
	klog.SetOutput(io.Discard)
	klog.LogToStderr(false)
	klog.SetSlogLogger(l)
}

// secretKeys are parts of attribute names whose values never reach a log;
// codeKeys are the OAuth codes by exact name.
var (
	secretKeys = []string{"token", "secret", "password", "authorization", "cookie", "credential"}
	codeKeys   = []string{"code", "user_code", "device_code", "usercode", "devicecode", "auth_code"}
)

// redact blanks secret-looking attributes, whatever package logs them.
func redact(_ []string, a slog.Attr) slog.Attr {
	k := strings.ToLower(a.Key)
	if slices.Contains(codeKeys, k) {
		return slog.String(a.Key, "[redacted]")
	}
	for _, s := range secretKeys {
		if strings.Contains(k, s) {
			return slog.String(a.Key, "[redacted]")
		}
	}
	if a.Value.Kind() == slog.KindString {
		if v := a.Value.String(); strings.Contains(strings.ToLower(v), "bearer ") {
			return slog.String(a.Key, "[redacted: contains a bearer token]")
		}
	}
	return a
}
