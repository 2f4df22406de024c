package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// WriteFile writes data to path atomically, keeping the previous version
// as path+".bak" (see [WriteFileFunc]).
func WriteFile(path string, data []byte) error {
	return WriteFileFunc(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFileFunc writes a file atomically: write streams the contents into a
// temporary file in path's folder, which is flushed to disk (fsync) and then
// renamed over path; the folder is synced so the rename itself is durable.
// If path already exists its previous contents are kept as path+".bak"
// (replacing an older backup, and only once the new file is in place), and
// the new file gets its permissions and, where the system allows, its owner
// and group.
//
// It respects what the file is: a read-only file is refused with a message
// saying so (as an editor does) and left alone; a symlink is written
// through (its target changes, the link stays); anything but a regular file
// is refused. Errors name path, never the temporary file.
//
// Whenever the process is killed, path holds either the complete old or the
// complete new contents, never a mix; a stray temporary file
// (".NAME.tmp-PID-*") may be left behind, and the next save of NAME removes
// those whose process is gone. If write returns an error, path and its
// backup are untouched and the temporary file is removed.
func WriteFileFunc(path string, write func(io.Writer) error) error {
	return writeAtomic(path, write, true, nil)
}

// WriteFileFuncReady is [WriteFileFunc] that calls ready once the new contents are on disk, before
// they take path's place: what must be known before the file changes (a session journal's record
// of the save) gets the time the contents took to write and sync.
func WriteFileFuncReady(path string, write func(io.Writer) error, ready func()) error {
	return writeAtomic(path, write, true, ready)
}

// ReplaceFile writes data to path atomically like [WriteFile] but keeps no backup: for files that are
// regenerated rather than edited (settings, rendered images).
func ReplaceFile(path string, data []byte) error {
	return writeAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}, false, nil)
}

// ReplaceFileFunc is [ReplaceFile] with the content streamed by write (as [WriteFileFunc], but
// with no backup): a big output need not be held in memory.
func ReplaceFileFunc(path string, write func(io.Writer) error) error {
	return writeAtomic(path, write, false, nil)
}

// removeLater removes the file at path on a goroutine of its own (tests wait for it: see removals).
func removeLater(path string) {
	removals.Add(1)
	go func() {
		defer removals.Done()
		_ = os.Remove(path) // gone already is as good
	}()
}

// removals are the removeLater calls still running.
var removals sync.WaitGroup

// oldBackups numbers the backups moved aside, so that a removal still running never takes a later save's.
var oldBackups atomic.Uint64

// renameFile is os.Rename (tests make it fail).
var renameFile = os.Rename

// ErrReadOnly is wrapped by the refusal to overwrite a read-only file.
var ErrReadOnly = errors.New("the file is read-only")

// readOnlyError is the refusal to overwrite a read-only file: it says so once, and is
// [ErrReadOnly].
type readOnlyError string

func (e readOnlyError) Error() string { return string(e) }
func (e readOnlyError) Unwrap() error { return ErrReadOnly }

// writeAtomic implements WriteFileFunc and ReplaceFile.
func writeAtomic(path string, write func(io.Writer) error, keepBackup bool, ready func()) (err error) {
	target, err := resolveLinks(path)
	if err != nil {
		return fmt.Errorf("saving %s: %w", path, err)
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	mode := fs.FileMode(0o644)
	st, statErr := os.Stat(target)
	switch {
	case statErr == nil && !st.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file (%s)", path, st.Mode().Type())
	case statErr == nil:
		if !writable(target, st) {
			return readOnlyError(fmt.Sprintf("%s is read-only (%s): make it writable, or save under another name", path, st.Mode().Perm()))
		}
		mode = st.Mode().Perm()
	case !errors.Is(statErr, fs.ErrNotExist):
		return fmt.Errorf("saving %s: %w", path, osCause(statErr))
	}
	removeStaleTemps(dir, base)
	if statErr == nil {
		dropCached(target)
	}
	tmp, err := os.CreateTemp(dir, tempPrefix(base)+"*")
	if err != nil {
		return fmt.Errorf("saving %s: cannot create a file in %s: %w", path, dir, osCause(err))
	}
	defer func() {
		if err != nil {
			_ = tmp.Close() // the save failed already: err says why
			_ = os.Remove(tmp.Name())
		}
	}()
	if err := write(tmp); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && pe.Path == tmp.Name() {
			return fmt.Errorf("saving %s: %w", path, pe.Err)
		}
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		return fmt.Errorf("saving %s: %w", path, osCause(err))
	}
	if statErr == nil {
		keepOwner(tmp, st) // where allowed: a file another user saves stays theirs
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("saving %s: %w", path, osCause(err))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("saving %s: %w", path, osCause(err))
	}
	if ready != nil {
		ready()
	}
	// The previous version is linked (or copied) under a temporary name first and becomes
	// NAME.bak only once the new file is in place: a failed save leaves the old backup as it was.
	bakTmp := ""
	if statErr == nil && keepBackup {
		if bakTmp, err = keepPrevious(target, dir, base); err != nil {
			return fmt.Errorf("keeping the previous version of %s: %w", path, osCause(err))
		}
	}
	if err := renameFile(tmp.Name(), target); err != nil {
		if bakTmp != "" {
			_ = os.Remove(bakTmp)
		}
		return fmt.Errorf("saving %s: %w", path, osCause(err))
	}
	if bakTmp != "" {
		// The backup it replaces (a regular file: anything else is left for the rename to refuse, as before) is
		// moved aside under a name of its own and removed after the save has returned: freeing a big file's blocks
		// took 100 ms of a save of 343 MB. (A removal the process did not live to do is a stale temporary file,
		// which the next save by another process removes.)
		old := ""
		if fi, err := os.Lstat(target + ".bak"); err == nil && fi.Mode().IsRegular() {
			old = filepath.Join(dir, tempPrefix(base)+"old"+strconv.FormatUint(oldBackups.Add(1), 10))
			if os.Rename(target+".bak", old) != nil {
				old = ""
			}
		}
		if err := os.Rename(bakTmp, target+".bak"); err != nil {
			_ = os.Remove(bakTmp)
			if old != "" {
				os.Rename(old, target+".bak") //nolint:errcheck // the previous backup back in its place, if it can be
			}
			return fmt.Errorf("%s is saved, but its previous version could not be kept as %s.bak: %w", path, base, osCause(err))
		}
		if old != "" {
			removeLater(old)
		}
	}
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("saving %s: %w", path, osCause(err))
	}
	return nil
}

// osCause strips the (temporary) file name from an operating system error,
// so that messages name the user's file only.
func osCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// resolveLinks follows path's symlinks (at most 40) to the file to write; a
// link to a file that does not exist yet resolves to where it points.
func resolveLinks(path string) (string, error) {
	for range 40 {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		to, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return "", errors.New("too many levels of symbolic links")
}

// tempPrefix names the temporary files of a save of base: ".NAME.tmp-PID-".
func tempPrefix(base string) string { return "." + base + ".tmp-" + strconv.Itoa(os.Getpid()) + "-" }

// removeStaleTemps removes the temporary files that saves of base by
// processes that no longer run left in dir (killed mid-save).
func removeStaleTemps(dir, base string) {
	matches, _ := filepath.Glob(filepath.Join(dir, "."+globEscape(base)+".tmp-*"))
	for _, m := range matches {
		rest := strings.TrimPrefix(filepath.Base(m), "."+base+".tmp-")
		pidText, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || processAlive(pid) {
			continue // not ours, or its save may still be running
		}
		_ = os.Remove(m) // a leftover: another process may have removed it first
	}
}

func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// keepPrevious makes a second name for the current contents of target (a
// hard link, or a copy where links are not possible), to become the backup.
func keepPrevious(target, dir, base string) (string, error) {
	name := filepath.Join(dir, tempPrefix(base)+"bak")
	_ = os.Remove(name) // a leftover of an earlier save, if any
	if err := os.Link(target, name); err != nil {
		if err := copyFile(target, name); err != nil {
			_ = os.Remove(name)
			return "", err
		}
	}
	return name, nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer func() { _ = in.Close() }() // read only
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close() // err says what failed
		return err
	}
	if err := out.Sync(); err != nil {
		_ = out.Close() // err says what failed
		return err
	}
	return out.Close()
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer func() { _ = d.Close() }() // read only
	if err := d.Sync(); err != nil && !errors.Is(err, fs.ErrInvalid) {
		return err
	}
	return nil
}
