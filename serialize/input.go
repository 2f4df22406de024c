package serialize

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// Input is one file to read, read once from start to end: a file, standard
// input or any reader. It tells what the file is ([Input.Kind]) from its
// first bytes, which it keeps and hands on to the loader, so that a pipe is
// never read twice. Load, ValidateInput and the command-line tools read
// through it; it is an io.Reader.
type Input struct {
	// Name is how problems name the input: the path, or "stdin".
	Name string
	// Path is the file's path ("" for standard input and readers).
	Path string

	r      io.Reader // the rest of the input after what prefix holds
	closer io.Closer
	prefix []byte // bytes read while sniffing or peeking, replayed first
	err    error  // the read error Peek met, returned once prefix is read
	seeker io.Seeker
	base   int64 // offset of the start in seeker
	size   int64 // total size, 0 when unknown

	sniffed       bool
	kind          FileKind
	format        string
	entitiesFirst bool
}

// StdinName names standard input in problems.
const StdinName = "stdin"

// OpenInput opens the file at path for reading; "-" is standard input. A
// regular file's size is known before reading (files over the size limit
// are refused before any byte is read); pipes, devices and standard input
// are read as streams within the limit.
func OpenInput(path string) (*Input, error) {
	if path == "-" {
		return &Input{Name: StdinName, r: os.Stdin}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	in := &Input{Name: path, Path: path, r: f, closer: f}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close() // read only
		return nil, err
	}
	switch {
	case st.IsDir():
		_ = f.Close() // read only
		return nil, fmt.Errorf("%s is a folder, not a file", path)
	case st.Mode().IsRegular():
		in.size, in.seeker = st.Size(), f
	}
	return in, nil
}

// NewInput reads r, naming it name in problems. If r can seek, the loader
// may go back to where it was (for files that list their entities before
// their version); otherwise such entities are kept in memory while the
// version is read (up to [Limits].MaxBuffered).
func NewInput(r io.Reader, name string) *Input {
	if in, ok := r.(*Input); ok {
		return in
	}
	in := &Input{Name: name, r: r}
	if s, ok := r.(io.Seeker); ok {
		if cur, err := s.Seek(0, io.SeekCurrent); err == nil {
			if end, err := s.Seek(0, io.SeekEnd); err == nil {
				if _, err := s.Seek(cur, io.SeekStart); err == nil {
					in.seeker, in.base, in.size = s, cur, end-cur
				}
			}
		}
	}
	return in
}

// Close closes the file OpenInput opened (not standard input).
func (in *Input) Close() error {
	if in.closer != nil {
		return in.closer.Close()
	}
	return nil
}

// Size returns the input's size in bytes, or 0 when it is unknown (a stream).
func (in *Input) Size() int64 { return in.size }

// Read reads the input: the bytes kept from sniffing first, then the rest.
func (in *Input) Read(p []byte) (int, error) {
	if len(in.prefix) > 0 {
		n := copy(p, in.prefix)
		in.prefix = in.prefix[n:]
		return n, nil
	}
	if in.err != nil {
		return 0, in.err
	}
	return in.r.Read(p)
}

// Peek returns up to the first n bytes of the input without consuming them: Read (and
// the loaders) still read the input from its start. It reads no more than n bytes; fewer
// come back at the end of the input or on a read error (which Read then returns).
func (in *Input) Peek(n int) []byte {
	for len(in.prefix) < n && in.err == nil {
		buf := make([]byte, n-len(in.prefix))
		k, err := in.r.Read(buf)
		in.prefix = append(in.prefix, buf[:k]...)
		if err != nil {
			in.err = err
		}
	}
	return in.prefix[:min(n, len(in.prefix))]
}

// rewind goes back to the start of the input, if it can seek.
func (in *Input) rewind() error {
	if in.seeker == nil {
		return errors.New("the input cannot be read again")
	}
	if _, err := in.seeker.Seek(in.base, io.SeekStart); err != nil {
		return err
	}
	in.prefix, in.r, in.err = nil, in.seeker.(io.Reader), nil
	return nil
}

// projectFormat is the "format" of project files (project.Format; that
// package depends on this one's neighbours, not the other way round).
const projectFormat = "voltex.project"

// sniffMax bounds how much of the input Kind reads to find the "format" key
// (which the editor writes first).
const sniffMax = 1 << 20

// Kind returns what the input says it is, from the top-level keys up to its
// "format" (read without building anything, within the first MiB, and kept
// for the loader). Anything unreadable, a file whose "format" comes after
// its "entities" or after its first MiB, or one without the key counts as a
// scene, so that the scene loader reports what is wrong with it.
func (in *Input) Kind() FileKind {
	if !in.sniffed {
		in.sniff()
	}
	return in.kind
}

// IsScene reports whether the input looks like a scene file: a JSON object
// whose "format" is "voltex.scene", or a version 0 scene (no format, an
// "entities" key). `fmt DIR` rewrites only these.
func (in *Input) IsScene() bool {
	in.Kind()
	return in.format == SceneFormat || in.format == "" && in.entitiesFirst
}

func (in *Input) sniff() {
	in.sniffed = true
	// What Peek read comes first; what sniffing does not use of it stays after what it read.
	pre := bytes.NewReader(in.prefix)
	rec := &recorder{r: io.MultiReader(pre, &errReader{in}), max: sniffMax}
	in.format, in.entitiesFirst = sniffTop(rec)
	in.prefix = append(rec.buf, in.prefix[len(in.prefix)-pre.Len():]...)
	switch in.format {
	case ExportFormat:
		in.kind = KindExport
	case projectFormat:
		in.kind = KindProject
	default:
		in.kind = KindScene
	}
}

// errReader reads the rest of an input (after its prefix), returning the error Peek met.
type errReader struct{ in *Input }

func (r *errReader) Read(p []byte) (int, error) {
	if r.in.err != nil {
		return 0, r.in.err
	}
	return r.in.r.Read(p)
}

// recorder keeps what it reads, and stops after max bytes.
type recorder struct {
	r   io.Reader
	buf []byte
	max int
}

var errSniffed = errors.New("read enough to tell the kind of file")

func (r *recorder) Read(p []byte) (int, error) {
	if len(r.buf) >= r.max {
		return 0, errSniffed
	}
	p = p[:min(len(p), r.max-len(r.buf))]
	n, err := r.r.Read(p)
	r.buf = append(r.buf, p[:n]...)
	return n, err
}

// sniffTop reads the top-level keys of a JSON object up to its "format"
// value, and reports whether an "entities" key came before it.
func sniffTop(r io.Reader) (format string, entities bool) {
	d := jsonpos.NewDecoder(r, jsonpos.Limits{MaxDepth: DefaultMaxDepth, MaxString: DefaultMaxString, MaxValues: 1 << 16})
	if _, err := d.EnterObject(); err != nil {
		return "", false
	}
	for {
		key, _, ok, err := d.NextMember()
		if err != nil || !ok {
			return "", entities
		}
		switch string(key) {
		case "format":
			v, err := d.Value()
			if err != nil || v.Kind() != jsonpos.String {
				return "", entities
			}
			return v.Str(), entities
		case "entities":
			return "", true // a scene: its entities come before any format
		}
		if err := d.Skip(); err != nil {
			return "", entities
		}
	}
}

// Sniff reads the top level of a JSON file just far enough to find its
// "format" key (see [Input.Kind]).
func Sniff(r io.Reader) FileKind { return NewInput(r, "").Kind() }

// IsScene reports whether r holds what looks like a scene file (see
// [Input.IsScene]).
func IsScene(r io.Reader) bool { return NewInput(r, "").IsScene() }

var _ io.Reader = (*Input)(nil)
