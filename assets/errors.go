package assets

import (
	"errors"
	"fmt"
	"github.com/voltex-editor/voltex/internal/assetref"
	"strconv"
	"strings"
)

// Sentinel errors, matched with errors.Is.
var (
	// ErrLimit is wrapped by every error caused by a [Limits] bound.
	ErrLimit = errors.New("limit exceeded")
	// ErrUnsafePath is wrapped by every refusal of [ResolvePath] and [NormalizeRef]: the
	// reference would leave the scene's folder tree.
	ErrUnsafePath = assetref.ErrUnsafe
	// ErrMissing is wrapped by [CheckRef] when no file or built-in mesh is behind a reference.
	ErrMissing = assetref.ErrMissing
	// ErrUnknownBuiltin is wrapped when a "builtin:" reference names no built-in mesh.
	ErrUnknownBuiltin = errors.New("unknown built-in mesh")
)

// ParseError is one problem in an OBJ file. Line and Col are 1-based (Col counts bytes);
// they are 0 when the problem has no position (e.g. the file is too large).
type ParseError struct {
	File      string
	Line, Col int
	Msg       string
	// Err is an optional cause (ErrLimit for limit violations).
	Err error
}

// Error formats the problem as "file:line:col: message".
func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(e.Line))
		if e.Col > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(e.Col))
		}
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the cause, if any.
func (e *ParseError) Unwrap() error { return e.Err }

// ParseErrors lists the problems found in one file, in file order. [ParseOBJ] stops collecting
// after MaxReportedErrors, and at the first limit violation.
type ParseErrors []*ParseError

// MaxReportedErrors is the number of problems after which [ParseOBJ] stops reading a file.
const MaxReportedErrors = 10

// Error returns one problem per line.
func (l ParseErrors) Error() string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// Unwrap returns the individual problems, so errors.As finds a *ParseError.
func (l ParseErrors) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// quote returns a short quoted excerpt of b for an error message.
func quote(b []byte) string {
	const maxLen = 32
	if len(b) > maxLen {
		return strconv.Quote(string(b[:maxLen])) + "…"
	}
	return strconv.Quote(string(b))
}

// refError wraps err with the mesh reference it concerns.
func refError(ref string, err error) error {
	return fmt.Errorf("assets: mesh %q: %w", ref, err)
}
