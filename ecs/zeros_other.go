//go:build !unix

package ecs

import "unsafe"

// zeroPages returns n bytes of zeros.
func zeroPages(n int) unsafe.Pointer { return heapZeros(n) }
