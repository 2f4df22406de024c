package glrender

/*
#include <malloc.h>

static void voltex_malloc_trim(void) { malloc_trim(0); }
*/
import "C"

// ReleaseFreedMemory gives the free pages of the C heap back to the system (glibc's malloc_trim). The GL driver's
// buffers live there (llvmpipe keeps a copy of every buffer): after a renderer freed big ones (Forget, a list
// dropped) glibc keeps their pages, which stay resident until it reuses them. It may run on any goroutine.
func ReleaseFreedMemory() { C.voltex_malloc_trim() }
