//go:build !linux || !(amd64 || arm64)

package atomicfile

// dropCached does nothing here (see fadvise_linux.go).
func dropCached(path string) {}
