//go:build unix

package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// writable reports whether the user may write the file at path: the system
// says so (access W_OK) and the file has a write permission bit at all, so
// that a 0444 file stays read-only even for root, as editors treat it.
func writable(path string, st fs.FileInfo) bool {
	return st.Mode().Perm()&0o222 != 0 && syscall.Access(path, 2 /* W_OK */) == nil
}

// keepOwner gives f the owner and group of the file st describes, where
// the system allows it (root can; others can keep a group they are in).
func keepOwner(f *os.File, st fs.FileInfo) {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	uid, gid := int(sys.Uid), int(sys.Gid)
	if uid == os.Geteuid() && gid == os.Getegid() {
		return
	}
	if f.Chown(uid, gid) != nil {
		f.Chown(-1, gid) //nolint:errcheck // keeping at least the group is best effort
	}
}

// processAlive reports whether a process with this id runs.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
