package prefault

import (
	"runtime"
	"syscall"
	"testing"
	"unsafe"
)

func minorFaults(t *testing.T) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		t.Fatal(err)
	}
	return ru.Minflt
}

// supported reports whether the kernel knows MADV_POPULATE_WRITE (Linux 5.14).
func supported() bool {
	b := make([]byte, 2*pageSize)
	p := (uintptr(unsafe.Pointer(&b[0])) + pageSize - 1) &^ (pageSize - 1)
	_, _, e := syscall.Syscall(syscall.SYS_MADVISE, p, pageSize, madvPopulateWrite)
	return e == 0
}

// TestSliceMapsPagesFirst: writing a fresh 32 MB slice after Slice takes a handful of page faults, not one a page,
// and what the slice held before is kept.
func TestSliceMapsPagesFirst(t *testing.T) {
	if !supported() {
		t.Skip("this kernel has no MADV_POPULATE_WRITE (Linux 5.14): Slice does nothing here")
	}
	runtime.LockOSThread() // RUSAGE_THREAD counts this thread's faults
	defer runtime.UnlockOSThread()
	const n = 32 << 20
	write := func(s []byte) int64 {
		f0 := minorFaults(t)
		for i := 0; i < len(s); i += int(pageSize) {
			s[i] = 1
		}
		return minorFaults(t) - f0
	}
	plain := write(make([]byte, n))
	s := make([]byte, n)
	Slice(s)
	populated := write(s)
	t.Logf("page faults writing 32 MB: %d plain, %d after Slice", plain, populated)
	if pages := int64(n / pageSize); plain < pages/2 {
		t.Skipf("a fresh slice took only %d faults for %d pages (memory reused): nothing to compare", plain, pages)
	}
	if populated > 64 {
		t.Errorf("%d page faults writing a slice after Slice, want at most 64", populated)
	}

	kept := make([]uint64, 0, 1<<20)
	for i := range 1000 {
		kept = append(kept, uint64(i)*7)
	}
	Slice(kept)
	for i, v := range kept {
		if v != uint64(i)*7 {
			t.Fatalf("value %d is %d after Slice, want %d", i, v, i*7)
		}
	}
	Slice([]byte(nil))
	Slice(make([]byte, 10))
	Slice(make([]struct{}, 1<<20))
}
