package prefault

import "unsafe"

// Min is the size in bytes under which Slice does nothing: a system call is not worth a few pages.
const Min = 64 << 10

// Slice maps the pages of s's elements, when they take at least Min bytes.
func Slice[T any](s []T) {
	var z T
	n := uintptr(len(s)) * unsafe.Sizeof(z)
	if n < Min {
		return
	}
	populate(unsafe.Pointer(unsafe.SliceData(s)), n)
}

// Range maps the pages of n bytes from p (memory of a Go slice that is at least that long), when n is at least Min.
func Range(p unsafe.Pointer, n uintptr) {
	if n >= Min {
		populate(p, n)
	}
}
