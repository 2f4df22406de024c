//go:build linux && (amd64 || arm64)

package atomicfile

import (
	"os"
	"syscall"
)

// dropCached asks the kernel to drop the cached pages of the file at path (posix_fadvise POSIX_FADV_DONTNEED),
// before a save writes its new version beside it: the new file's pages then reuse the memory the old version's
// took. On the virtual machine docs/performance.md describes, pages the kernel has not used lately are dear:
// writing 343 MB into fresh page cache took 640–670 ms, into pages just freed 50–57 ms. The old version stays on
// disk (it becomes the backup); only its copy in memory goes, which nothing reads after a save — but where the
// backup cannot be a hard link (some network and FAT file systems) and is copied, read back from the disk.
func dropCached(path string) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer func() { _ = f.Close() }() // read only: closing loses nothing
	const fadvDontNeed = 4
	syscall.Syscall6(syscall.SYS_FADVISE64, f.Fd(), 0, 0, fadvDontNeed, 0, 0) //nolint:errcheck // advice only
}
