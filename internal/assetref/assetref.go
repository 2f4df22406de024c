package assetref

import (
	"errors"
	"fmt"
	"github.com/voltex-editor/voltex/internal/words"
	"path"
	"path/filepath"
	"strings"
)

// BuiltinPrefix starts the references of the meshes generated in code ("builtin:cube").
const BuiltinPrefix = "builtin:"

var (
	// ErrUnsafe is wrapped by the refusal of a reference that would leave the scene's folder:
	// absolute paths, drive letters, URLs and ".." escapes.
	ErrUnsafe = errors.New("outside the scene folder")
	// ErrMissing is wrapped by checks that find no file (or no built-in mesh) behind a well-formed
	// reference: a warning for a scene, not a refusal.
	ErrMissing = errors.New("asset not found")
)

// MaxLen is the longest reference accepted, in bytes (file systems' PATH_MAX): longer strings
// are not paths a scene can mean.
const MaxLen = 4096

// IsBuiltin reports whether ref uses the "builtin:" scheme (whether or not the name exists).
func IsBuiltin(ref string) bool { return strings.HasPrefix(ref, BuiltinPrefix) }

// Check returns the canonical form of ref — built-in references unchanged, paths
// slash-separated and cleaned ("./models\\a.obj" → "models/a.obj"; backslashes count as
// separators so that scenes written on Windows mean the same everywhere) — or why ref is not a
// reference. Absolute paths, drive letters, URLs and paths that climb out of the folder with ".."
// wrap [ErrUnsafe]; an empty reference, the folder itself, NUL bytes, built-in names that are
// not names and references longer than MaxLen are refused too. A reference to a part of a glTF
// file ([Split]) is checked as its file's reference; the part, kept as written, must not be empty.
func Check(ref string) (string, error) {
	if ref == "" {
		return "", errors.New("empty asset reference")
	}
	if len(ref) > MaxLen {
		return "", fmt.Errorf("asset reference of %s is longer than the limit of %s", words.Bytes(int64(len(ref))), words.Bytes(MaxLen))
	}
	if strings.IndexByte(ref, 0) >= 0 {
		return "", errors.New("asset reference contains a NUL byte")
	}
	if IsBuiltin(ref) {
		name := ref[len(BuiltinPrefix):]
		if !isName(name) {
			return "", fmt.Errorf("%q is not a built-in mesh name (letters, digits, - and _ after %q)", name, BuiltinPrefix)
		}
		return ref, nil
	}
	file, frag, hasFrag := Split(ref)
	if hasFrag {
		c, err := Check(file)
		if err != nil {
			return "", err
		}
		if frag == "" {
			return "", fmt.Errorf("%q names nothing inside %s after \"#\"", ref, c)
		}
		return c + "#" + frag, nil
	}
	s := strings.ReplaceAll(ref, `\`, "/")
	if scheme := urlScheme(s); scheme != "" {
		return "", fmt.Errorf("%q is a URL (%s:): asset references are paths relative to the scene folder: %w", ref, scheme, ErrUnsafe)
	}
	if path.IsAbs(s) || filepath.IsAbs(ref) || filepath.VolumeName(ref) != "" || hasDriveLetter(s) {
		return "", fmt.Errorf("absolute path %q refused: asset paths must be relative to the scene folder: %w", ref, ErrUnsafe)
	}
	c := path.Clean(s)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("path %q refused: it climbs out of the scene folder with \"..\": %w", ref, ErrUnsafe)
	}
	if c == "." {
		return "", fmt.Errorf("path %q names the scene folder itself, not a file", ref)
	}
	return c, nil
}

// modelExts are the file types whose references may name a part of the file after a "#".
var modelExts = []string{".gltf", ".glb"}

// Split splits a reference to a part of a model file ("models/ship.glb#mesh/Hull/0": a mesh
// primitive, "ship.glb#image/2": an image) into the file's reference and the part, and reports
// whether ref has one. Only glTF files (.gltf, .glb, any case) have parts: in any other reference
// a "#" is part of the file name.
func Split(ref string) (file, part string, ok bool) {
	i := strings.IndexByte(ref, '#')
	if i < 0 {
		return ref, "", false
	}
	lower := strings.ToLower(ref[:i])
	for _, ext := range modelExts {
		if strings.HasSuffix(lower, ext) {
			return ref[:i], ref[i+1:], true
		}
	}
	return ref, "", false
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := range len(s) {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

func hasDriveLetter(s string) bool {
	return len(s) >= 2 && s[1] == ':' && (s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z')
}

// urlScheme returns the scheme of a URL-like reference ("http", "file", "data"): two or more
// letters, digits, +, - or . before a colon; "" if there is none (a drive letter is one letter).
func urlScheme(s string) string {
	i := strings.IndexByte(s, ':')
	if i < 2 {
		return ""
	}
	for j := range i {
		c := s[j]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || j > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return ""
		}
	}
	return s[:i]
}
