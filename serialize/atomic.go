package serialize

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
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
// (replacing an older backup) and the new file gets its permissions.
//
// Whenever the process is killed, path holds either the complete old or the
// complete new contents, never a mix; a stray temporary file
// (".NAME.tmp-*") may be left behind. If write returns an error, path and
// its backup are untouched and the temporary file is removed.
func WriteFileFunc(path string, write func(io.Writer) error) error {
	return writeAtomic(path, write, true)
}

// ReplaceFile writes data to path atomically like [WriteFile] but keeps no backup: for files that are
// regenerated rather than edited (settings, rendered images).
func ReplaceFile(path string, data []byte) error {
	return writeAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}, false)
}

// writeAtomic implements WriteFileFunc and ReplaceFile.
func writeAtomic(path string, write func(io.Writer) error, keepBackup bool) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	mode := fs.FileMode(0o644)
	st, statErr := os.Stat(path)
	switch {
	case statErr == nil && !st.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file", path)
	case statErr == nil:
		mode = st.Mode().Perm()
	case !errors.Is(statErr, fs.ErrNotExist):
		return statErr
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := write(tmp); err != nil {
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if statErr == nil && keepBackup {
		if err := backup(path); err != nil {
			return fmt.Errorf("keeping the previous version of %s: %w", path, err)
		}
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return syncDir(dir)
}

// backup makes path+".bak" a copy of path without ever removing path: a
// hard link where the file system allows it, a copy otherwise, each first
// made under a temporary name and renamed into place.
func backup(path string) error {
	bak := path + ".bak"
	tmp := bak + ".tmp"
	os.Remove(tmp)
	if err := os.Link(path, tmp); err != nil {
		if err := copyFile(path, tmp); err != nil {
			os.Remove(tmp)
			return err
		}
	}
	return os.Rename(tmp, bak)
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, fs.ErrInvalid) {
		return err
	}
	return nil
}
