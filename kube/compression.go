package kube

import (
	"fmt"

	"k8s.io/client-go/rest"
)

// Compression chooses whether responses are asked for gzipped, like
// kubectl's --disable-compression.
type Compression int

const (
	// CompressionAuto: as the kubeconfig's cluster says (disable-compression),
	// else gzip, as kubectl does. Turning gzip off for an API server on this
	// machine was tried and measured: it saved that server CPU at 10,000 Apps
	// in some runs, but the board then reads seven times the bytes and its own
	// start cost more (50,000 Apps: 14.0 s of CPU against 9.7 s with gzip).
	CompressionAuto Compression = iota
	CompressionOn
	CompressionOff
)

func (c Compression) String() string {
	switch c {
	case CompressionOn:
		return "on"
	case CompressionOff:
		return "off"
	}
	return "auto"
}

// ParseCompression reads the --compression flag's value.
func ParseCompression(s string) (Compression, error) {
	switch s {
	case "", "auto":
		return CompressionAuto, nil
	case "on":
		return CompressionOn, nil
	case "off":
		return CompressionOff, nil
	}
	return CompressionAuto, fmt.Errorf("must be auto, on or off, not %q", s)
}

// applyCompression sets cfg.DisableCompression for mode and says why.
func applyCompression(cfg *rest.Config, mode Compression) (why string) {
	switch {
	case mode == CompressionOn:
		cfg.DisableCompression = false
		return "gzip: --compression=on"
	case mode == CompressionOff:
		cfg.DisableCompression = true
		return "no gzip: --compression=off"
	case cfg.DisableCompression:
		return "no gzip: the kubeconfig says disable-compression"
	}
	return "gzip: the default (the kubeconfig does not disable it)"
}
