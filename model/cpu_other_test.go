//go:build !unix

package model

import "testing"

func reportCPU(*testing.B) func() { return func() {} }
