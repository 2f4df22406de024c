package hugepages

import (
	"bytes"
	"fmt"
	"os"
	"syscall"
)

// madvHugepage and madvNohugepage are MADV_HUGEPAGE and MADV_NOHUGEPAGE of <linux/mman-common.h>, which package
// syscall does not name.
const (
	madvHugepage   = 14
	madvNohugepage = 15
)

// onRequest reports whether the kernel gives transparent huge pages only on request (where it gives them always,
// there is nothing to ask; where never, nothing to get).
func onRequest() bool {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && bytes.Contains(b, []byte("[madvise]"))
}

// advise asks for huge pages in [p, p+n) (on), or stops asking (off).
func advise(p, n uintptr, on bool) bool {
	advice := madvNohugepage
	if on {
		advice = madvHugepage
	}
	// The range is held as addresses, not a pointer, so that the heap can free what it holds.
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, p, n, uintptr(advice))
	return errno == 0
}

// mappingAround returns the run of adjacent anonymous read-write mappings that holds address at: the heap's
// arenas in use (the runtime maps them at increasing addresses, apart from everything else).
func mappingAround(at uintptr) (lo, hi uintptr, ok bool) {
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return 0, 0, false
	}
	for line := range bytes.Lines(maps) {
		var a, b, offset, inode uint64
		var perms, dev string
		if n, _ := fmt.Sscanf(string(line), "%x-%x %s %x %s %d", &a, &b, &perms, &offset, &dev, &inode); n != 6 {
			continue
		}
		anon := perms == "rw-p" && inode == 0 && len(bytes.Fields(line)) == 5
		if anon && uintptr(a) == hi {
			hi = uintptr(b) // the run goes on
			continue
		}
		if lo <= at && at < hi {
			return lo, hi, true
		}
		lo, hi = 0, 0
		if anon {
			lo, hi = uintptr(a), uintptr(b)
		}
	}
	return lo, hi, lo <= at && at < hi
}
