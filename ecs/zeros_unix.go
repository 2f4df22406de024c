//go:build unix

package ecs

import (
	"syscall"
	"unsafe"
)

// zeroPages returns n bytes of zeros that cost nothing until read: pages mapped read-only, outside the Go heap
// (zeroing tens of megabytes on the heap for a big world's first snapshot took a quarter of a second). They stay
// mapped, since a snapshot may read them for as long as it is held.
func zeroPages(n int) unsafe.Pointer {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return heapZeros(n)
	}
	return unsafe.Pointer(&b[0])
}
