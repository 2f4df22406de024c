package hugepages

import (
	"runtime"
	"sync"
	"unsafe"
)

// hugePage is the size of a huge page where the kernel has them (x86-64, and arm64 with 4 KiB pages).
const hugePage = 2 << 20

var mu sync.Mutex

// Room is the heap's address range advised for huge pages by [Reserve]: the room it grew, and the heap around it
// (its free pages are taken before the room).
type Room struct{ begin, end uintptr }

// Reserve makes the heap's faults of fresh memory huge pages, where the system gives them only on request, until
// [Room.End]: it grows the heap by n bytes (then gives them back to it, so a garbage collection runs) and advises
// the heap's mapping around them. It costs no resident memory: pages are faulted in only by the allocations that
// use them.
func Reserve(n int) Room {
	if n < 2*hugePage || !onRequest() {
		return Room{}
	}
	mu.Lock()
	defer mu.Unlock()
	room := make([]byte, n)
	at := uintptr(unsafe.Pointer(&room[0]))
	begin, end := at, at+uintptr(n)
	if lo, hi, ok := mappingAround(at); ok {
		begin, end = lo, hi
	}
	r := Room{begin: (begin + hugePage - 1) &^ (hugePage - 1), end: end &^ (hugePage - 1)}
	if r.end <= r.begin || !advise(r.begin, r.end-r.begin, true) {
		r = Room{}
	}
	runtime.KeepAlive(room)
	room = nil
	runtime.GC()
	return r
}

// Advised reports whether the room was advised (the system gives huge pages on request).
func (r Room) Advised() bool { return r.end > r.begin }

// End stops asking for huge pages in the room: pages faulted in from now on are the usual ones, and the kernel
// does not gather small pages there into huge ones later (which would make resident again the memory the runtime
// gave back). Huge pages already faulted in stay.
func (r Room) End() {
	if r.Advised() {
		advise(r.begin, r.end-r.begin, false)
	}
}
