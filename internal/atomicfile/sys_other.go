//go:build !unix

package atomicfile

import (
	"io/fs"
	"os"
)

// writable reports whether the file has its owner's write permission.
func writable(path string, st fs.FileInfo) bool { return st.Mode().Perm()&0o200 != 0 }

// keepOwner does nothing where owners are not numeric ids.
func keepOwner(f *os.File, st fs.FileInfo) {}

// processAlive cannot tell here: every temporary file is left alone.
func processAlive(pid int) bool { return true }
