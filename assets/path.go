package assets

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// NormalizeRef returns the canonical form of a mesh reference: built-in references unchanged,
// file references slash-separated and cleaned ("./models\\a.obj" → "models/a.obj"). Backslashes
// count as separators so that scenes written on Windows mean the same everywhere.
//
// It refuses (wrapping [ErrUnsafePath]) absolute paths, drive letters and references that climb
// out of the folder with "..". Symlinks are checked by [ResolvePath], which needs the disk.
func NormalizeRef(ref string) (string, error) {
	if ref == "" {
		return "", errors.New("empty mesh reference")
	}
	if IsBuiltinRef(ref) {
		return ref, nil
	}
	if strings.IndexByte(ref, 0) >= 0 {
		return "", errors.New("mesh reference contains a NUL byte")
	}
	s := strings.ReplaceAll(ref, `\`, "/")
	if path.IsAbs(s) || filepath.IsAbs(ref) || filepath.VolumeName(ref) != "" || hasDriveLetter(s) {
		return "", fmt.Errorf("absolute path %q refused: asset paths must be relative to the scene folder: %w", ref, ErrUnsafePath)
	}
	c := path.Clean(s)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("path %q refused: it climbs out of the scene folder with \"..\": %w", ref, ErrUnsafePath)
	}
	if c == "." {
		return "", fmt.Errorf("path %q names the scene folder itself, not a file", ref)
	}
	return c, nil
}

func hasDriveLetter(s string) bool {
	return len(s) >= 2 && s[1] == ':' && (s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z')
}

// ResolvePath returns the file path for the file reference ref inside the scene folder root.
// It refuses (wrapping [ErrUnsafePath]) absolute paths, ".." escapes and paths that, once
// symlinks are followed, end up outside root's tree. A reference to a file that does not exist
// yet is not refused: reading it reports the missing file. A symlink whose target is missing is
// refused, since where it points cannot be checked.
//
// The returned path is root joined with the cleaned reference (symlinks not replaced), suitable
// for opening, watching and messages. Checks and the later open are not atomic: a symlink
// swapped in between is not caught.
func ResolvePath(root, ref string) (string, error) {
	if IsBuiltinRef(ref) {
		return "", fmt.Errorf("%q is a built-in mesh, not a file", ref)
	}
	c, err := NormalizeRef(ref)
	if err != nil {
		return "", err
	}
	if root == "" {
		return "", errors.New("the scene has no folder yet (save it first): file references need one")
	}
	rootAbs, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	full := filepath.Join(rootAbs, filepath.FromSlash(c))
	realRoot, err := filepath.EvalSymlinks(rootAbs)
	if err != nil {
		return "", fmt.Errorf("scene folder: %w", err)
	}
	real, err := evalExisting(full)
	if err != nil {
		return "", err
	}
	if !within(realRoot, real) {
		return "", fmt.Errorf("path %q refused: it resolves through a symlink to %s, outside the scene folder %s: %w",
			ref, real, realRoot, ErrUnsafePath)
	}
	return full, nil
}

// evalExisting resolves symlinks in p like filepath.EvalSymlinks, but accepts a path whose tail
// does not exist yet: the longest existing prefix is resolved and the rest appended.
func evalExisting(p string) (string, error) {
	var rest []string
	for {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			for i := len(rest) - 1; i >= 0; i-- {
				real = filepath.Join(real, rest[i])
			}
			return real, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if fi, lerr := os.Lstat(p); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return "", fmt.Errorf("symlink %s cannot be checked: its target is missing: %w", p, fs.ErrNotExist)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return "", err
		}
		rest = append(rest, filepath.Base(p))
		p = parent
	}
}

// within reports whether p is root or inside it (both absolute and clean).
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
