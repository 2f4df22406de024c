package diag

import (
	"fmt"
	"github.com/voltex-editor/voltex/internal/words"
	"strconv"
	"strings"
)

// Problem is one finding in a file: an error (the file cannot be loaded) or
// a warning (it loads, but something is worth knowing).
type Problem struct {
	File    string // file name as given by the caller; may be empty
	Line    int    // 1-based; 0 when the problem has no position
	Col     int    // 1-based byte column
	Path    string // JSON path of the offending value, e.g. entities[12].components.Transform.scale[2]
	Msg     string
	Warning bool
}

// String formats p as "file:line:col: path: message", leaving out the parts
// p does not have, with "warning: " before the path for warnings.
func (p Problem) String() string {
	var b strings.Builder
	if p.File != "" {
		b.WriteString(p.File)
		b.WriteString(":")
	}
	if p.Line > 0 {
		b.WriteString(strconv.Itoa(p.Line))
		b.WriteString(":")
		b.WriteString(strconv.Itoa(p.Col))
		b.WriteString(":")
	}
	if b.Len() > 0 {
		b.WriteString(" ")
	}
	if p.Warning {
		b.WriteString("warning: ")
	}
	if p.Path != "" {
		b.WriteString(p.Path)
		b.WriteString(": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// List collects problems. At most Max errors are kept (0 means 100), and
// warnings up to the same number; later ones are only counted in Dropped
// (without formatting their messages), so a reader can go on to the end of
// a file and say how many more there were.
type List struct {
	File     string // copied into every problem added
	Max      int
	Problems []Problem
	Dropped  int // errors and warnings beyond Max
	errors   int
	warnings int
}

func (l *List) max() int {
	if l.Max <= 0 {
		return 100
	}
	return l.Max
}

// full reports whether a problem of this kind would only be counted (and
// counts it if so).
func (l *List) full(warning bool) bool {
	n := &l.errors
	if warning {
		n = &l.warnings
	}
	if *n >= l.max() {
		l.Dropped++
		if !warning {
			l.errors++
		}
		return true
	}
	*n++
	return false
}

// Add records p (its File is set from the list).
func (l *List) Add(p Problem) {
	if l.full(p.Warning) {
		return
	}
	p.File = l.File
	l.Problems = append(l.Problems, p)
}

// AddFrom records p, which keeps its own File (a problem found in another file, such as a
// prefab the file uses).
func (l *List) AddFrom(p Problem) {
	if l.full(p.Warning) {
		return
	}
	l.Problems = append(l.Problems, p)
}

// Errorf records an error at line:col.
func (l *List) Errorf(line, col int, path string, format string, args ...any) {
	if l.full(false) {
		return
	}
	l.Problems = append(l.Problems, Problem{File: l.File, Line: line, Col: col, Path: path, Msg: fmt.Sprintf(format, args...)})
}

// Warnf records a warning at line:col.
func (l *List) Warnf(line, col int, path string, format string, args ...any) {
	if l.full(true) {
		return
	}
	l.Problems = append(l.Problems, Problem{File: l.File, Line: line, Col: col, Path: path, Msg: fmt.Sprintf(format, args...), Warning: true})
}

// Full reports whether no more errors will be kept, so a caller can stop
// looking.
func (l *List) Full() bool { return l.errors >= l.max() }

// HasErrors reports whether any error (not warning) was added.
func (l *List) HasErrors() bool { return l.errors > 0 }

// Warnings returns the warnings collected so far.
func (l *List) Warnings() []Problem {
	var w []Problem
	for _, p := range l.Problems {
		if p.Warning {
			w = append(w, p)
		}
	}
	return w
}

// Err returns nil if no error was added, otherwise an *Error holding every
// problem (warnings included, in the order they were found).
func (l *List) Err() error {
	if l.errors == 0 {
		return nil
	}
	return &Error{Problems: l.Problems, Dropped: l.Dropped}
}

// Error is returned when a file cannot be loaded. It lists every problem
// found, up to the collection limit.
type Error struct {
	Problems []Problem
	Dropped  int // problems found beyond the limit and not listed
}

// Error returns the problems one per line, then a line saying how many
// more were found ("… and 9,900 more problems").
func (e *Error) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.String())
	}
	if e.Dropped > 0 {
		b.WriteByte('\n')
		b.WriteString(e.More())
	}
	return b.String()
}

// More returns the line that says how many problems were found beyond the
// listed ones ("… and 9,900 more problems"), or "" if none were.
func (e *Error) More() string {
	if e.Dropped == 0 {
		return ""
	}
	what := "more problems"
	if e.Dropped == 1 {
		what = "more problem"
	}
	return "… and " + words.Thousands(int64(e.Dropped)) + " " + what
}

// Path builds JSON paths like entities[12].components.Transform.scale[2]
// incrementally; Key and Index return a mark to Truncate back to.
type Path struct{ b []byte }

// Key appends an object key: `.key`, or `["odd key"]` when the key is not
// an identifier.
func (p *Path) Key(k string) int {
	mark := len(p.b)
	if isIdent(k) {
		if len(p.b) > 0 {
			p.b = append(p.b, '.')
		}
		p.b = append(p.b, k...)
	} else {
		p.b = append(p.b, '[')
		p.b = strconv.AppendQuote(p.b, k)
		p.b = append(p.b, ']')
	}
	return mark
}

// Index appends an array index: `[i]`.
func (p *Path) Index(i int) int {
	mark := len(p.b)
	p.b = append(p.b, '[')
	p.b = strconv.AppendInt(p.b, int64(i), 10)
	p.b = append(p.b, ']')
	return mark
}

// Truncate goes back to a mark returned by Key or Index.
func (p *Path) Truncate(mark int) { p.b = p.b[:mark] }

// String returns the path so far.
func (p *Path) String() string { return string(p.b) }

func isIdent(k string) bool {
	if k == "" {
		return false
	}
	for i := range len(k) {
		c := k[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// Limit resolves one configured limit: 0 means def, a negative value means
// no limit (returned as 0), anything else is itself.
func Limit(v, def int64) int64 {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}
