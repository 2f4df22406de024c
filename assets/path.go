package assets

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/voltex-editor/voltex/internal/assetref"
)

// NormalizeRef returns the canonical form of a mesh reference: built-in references unchanged,
// file references slash-separated and cleaned ("./models\\a.obj" → "models/a.obj"). Backslashes
// count as separators so that scenes written on Windows mean the same everywhere.
//
// It refuses (wrapping [ErrUnsafePath]) absolute paths, drive letters, URLs and references that
// climb out of the folder with "..", and refuses empty references and built-in names that are
// not names. It is the rule the scene loader, the exporter and the game loader apply too
// (internal/assetref). Symlinks are checked by [ResolvePath], which needs the disk.
func NormalizeRef(ref string) (string, error) { return assetref.Check(ref) }

// SplitRef splits a reference to a part of a model file ("models/ship.glb#mesh/Hull/0") into
// the file's reference and the part, and reports whether it has one: only .gltf and .glb files have
// parts (meshes "mesh/NAME/PRIMITIVE", images "image/INDEX"); elsewhere "#" is part of the name.
func SplitRef(ref string) (file, part string, ok bool) { return assetref.Split(ref) }

// ResolvePath returns the file path for the file reference ref inside the scene folder root (the
// model file's path for a reference to a part of one).
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
	c, _, _ = SplitRef(c) // a part of a model file: the file's path
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
	resolved, err := evalExisting(full)
	if err != nil {
		return "", err
	}
	if !within(realRoot, resolved) {
		return "", fmt.Errorf("path %q refused: it resolves through a symlink to %s, outside the scene folder %s: %w",
			ref, resolved, realRoot, ErrUnsafePath)
	}
	return full, nil
}

// evalExisting resolves symlinks in p like filepath.EvalSymlinks, but accepts a path whose tail
// does not exist yet: the longest existing prefix is resolved and the rest appended.
func evalExisting(p string) (string, error) {
	var rest []string
	for {
		resolved, err := filepath.EvalSymlinks(p)
		if err == nil {
			for i := len(rest) - 1; i >= 0; i-- {
				resolved = filepath.Join(resolved, rest[i])
			}
			return resolved, nil
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

// CheckRef checks the reference ref of a scene whose folder is root on disk, as validate and render
// do: nil for a built-in mesh that exists or a regular file inside root's tree; an error wrapping
// [ErrMissing] for an unknown built-in mesh or a file that does not exist (a warning for a scene);
// any other error (an unsafe path, a symlink out of the folder, a folder or device) is a refusal.
// A reference to a part of a model file checks the file (what the part names is checked when the
// model is read).
func CheckRef(root, ref string) error {
	if IsBuiltinRef(ref) {
		if _, err := NormalizeRef(ref); err != nil {
			return err
		}
		if _, ok := Builtin(ref); !ok {
			return fmt.Errorf("%w: unknown built-in mesh %q (known: %s)", ErrMissing, ref, strings.Join(BuiltinRefs(), ", "))
		}
		return nil
	}
	p, err := ResolvePath(root, ref)
	if err != nil {
		return err
	}
	st, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: %s does not exist", ErrMissing, p)
	case err != nil:
		return err
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file (%s)", p, st.Mode().Type())
	}
	return nil
}
