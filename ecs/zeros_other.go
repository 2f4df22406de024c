//go:build !unix

package ecs

import "unsafe"

// zeroPages returns n bytes of zeros.
func zeroPages(n int) unsafe.Pointer { return unsafe.Pointer(&make([]uint64, (n+7)/8)[0]) }
