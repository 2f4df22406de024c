package prefault

import (
	"os"
	"runtime"
	"syscall"
	"unsafe"
)

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14).
const madvPopulateWrite = 23

var pageSize = uintptr(os.Getpagesize())

// populate maps the pages wholly inside [p, p+n) writable; the pages at the ends fault as usual.
func populate(p unsafe.Pointer, n uintptr) {
	start := (uintptr(p) + pageSize - 1) &^ (pageSize - 1)
	end := (uintptr(p) + n) &^ (pageSize - 1)
	if end <= start {
		return
	}
	// An error (an old kernel: EINVAL) leaves the pages to fault one by one, as without it.
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, start, end-start, madvPopulateWrite)
	runtime.KeepAlive(p)
}
