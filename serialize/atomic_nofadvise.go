//go:build !linux || !(amd64 || arm64)

package serialize

// dropCached does nothing here (see atomic_linux.go).
func dropCached(path string) {}
