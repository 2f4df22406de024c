//go:build !linux

package prefault

import "unsafe"

func populate(p unsafe.Pointer, n uintptr) {}
