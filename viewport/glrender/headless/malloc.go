package headless

/*
#include <malloc.h>

static long long voltex_malloc_in_use(void) {
	struct mallinfo2 mi = mallinfo2();
	return (long long)(mi.uordblks + mi.hblkhd);
}
*/
import "C"

// MallocInUse returns the bytes the C heap (glibc's malloc: the GL driver's buffers, llvmpipe's copies) has
// handed out and not had back, over all arenas and mmapped blocks. Unlike the process's resident memory it does
// not move with the allocator's free pages, so it tells what a driver keeps, whatever the heap's layout.
func MallocInUse() int64 { return int64(C.voltex_malloc_in_use()) }
