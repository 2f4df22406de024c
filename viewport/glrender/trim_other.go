//go:build !linux

package glrender

// ReleaseFreedMemory gives the free pages of the C heap back to the system where the C library can (glibc's
// malloc_trim on Linux); elsewhere it does nothing.
func ReleaseFreedMemory() {}
