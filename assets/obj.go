package assets

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/voltex-editor/voltex/internal/words"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"sync"
)

// Limits bound what the OBJ parser accepts, so that a hostile or broken file cannot exhaust
// memory. A zero (or negative) field means its default; the zero Limits is the defaults.
// With the defaults the parser's peak memory stays below roughly 3× MaxFileBytes.
type Limits struct {
	// MaxFileBytes is the largest file accepted. Default 128 MiB.
	MaxFileBytes int64
	// MaxVertices bounds each of the v, vt and vn lists and the number of distinct v/vt/vn
	// combinations (the vertices of the resulting mesh). Default 2,000,000.
	MaxVertices int
	// MaxTriangles bounds the triangles after fan triangulation of all faces. Default 4,000,000.
	MaxTriangles int
	// MaxFaceVertices bounds the corners of a single f statement. Default 1024 (real models have
	// faces of several hundred corners; concave ones are ear-clipped, in time that grows with the
	// square of their corners).
	MaxFaceVertices int
}

// Default limits (see [Limits]).
const (
	DefaultMaxFileBytes    = 128 << 20
	DefaultMaxVertices     = 2_000_000
	DefaultMaxTriangles    = 4_000_000
	DefaultMaxFaceVertices = 1024
)

// DefaultLimits returns the limits used for zero fields.
func DefaultLimits() Limits {
	return Limits{
		MaxFileBytes:    DefaultMaxFileBytes,
		MaxVertices:     DefaultMaxVertices,
		MaxTriangles:    DefaultMaxTriangles,
		MaxFaceVertices: DefaultMaxFaceVertices,
	}
}

// WithDefaults returns l with its zero (or negative) fields set to their defaults.
func (l Limits) WithDefaults() Limits {
	d := DefaultLimits()
	if l.MaxFileBytes <= 0 {
		l.MaxFileBytes = d.MaxFileBytes
	}
	if l.MaxVertices <= 0 {
		l.MaxVertices = d.MaxVertices
	}
	if l.MaxTriangles <= 0 {
		l.MaxTriangles = d.MaxTriangles
	}
	if l.MaxFaceVertices <= 0 {
		l.MaxFaceVertices = d.MaxFaceVertices
	}
	return l
}

// objStats counts what an OBJ file declared.
type objStats struct {
	Positions int // v statements
	TexCoords int // vt statements
	Normals   int // vn statements
	Faces     int // f statements
}

// LoadOBJ reads and parses the OBJ file at path (see [ParseOBJ]). It refuses files that are
// not regular files (devices, FIFOs) and files larger than lim.MaxFileBytes before reading
// them. LoadOBJ does no path-safety checks: resolve untrusted references with [ResolvePath].
func LoadOBJ(path string, lim Limits) (*Mesh, error) {
	m, _, err := loadOBJ(path, lim)
	return m, err
}

func loadOBJ(path string, lim Limits) (*Mesh, objStats, error) {
	lim = lim.WithDefaults()
	data, err := readLimited(path, lim.MaxFileBytes)
	if err != nil {
		return nil, objStats{}, err
	}
	return parseOBJ(path, data, lim)
}

// readLimited reads a regular file of at most maxBytes bytes.
func readLimited(path string, maxBytes int64) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &ParseError{File: path, Msg: "not a regular file (" + st.Mode().Type().String() + ")"}
	}
	if st.Size() > maxBytes {
		return nil, tooBig(path, st.Size(), maxBytes)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only: closing loses nothing
	var buf bytes.Buffer
	buf.Grow(int(st.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, maxBytes+1)); err != nil {
		return nil, err
	}
	if int64(buf.Len()) > maxBytes { // the file grew after Stat
		return nil, tooBig(path, int64(buf.Len()), maxBytes)
	}
	return buf.Bytes(), nil
}

func tooBig(path string, size, maxBytes int64) *ParseError {
	return &ParseError{File: path, Msg: fmt.Sprintf("file is %s, larger than the limit of %s", words.Bytes(size), words.Bytes(maxBytes)), Err: ErrLimit}
}

// ParseOBJ parses Wavefront OBJ text; name is used in error messages (usually the file path).
//
// Supported: v (x y z, optionally followed by w or a vertex colour, which are ignored and may
// be nan or inf), vt (u [v [w]]), vn (x y z) and f with corners in any of the forms v, v/vt,
// v//vn and v/vt/vn (empty trailing slots, as in 1// or 2/2/, mean absent), with positive or
// negative (relative to the end of the list so far) indices. Faces with more than three corners
// are triangulated: convex ones as a fan, concave ones by ear clipping on the face's plane, so
// that they cover exactly their area. Corners are de-duplicated per distinct v/vt/vn triple.
// Statements such as o, g, s, usemtl, mtllib, l and p are ignored; so are comments (also after
// a statement), blank lines and a UTF-8 byte order mark; a backslash at the end of a line
// continues it; lines may end in LF or CRLF. A UTF-16 file is refused as such. Vertices that have no normal
// get a smooth, area-weighted normal computed from the faces around their position.
//
// On error the returned error is a [ParseErrors] with up to [MaxReportedErrors] problems, each
// "name:line:col: message"; the mesh is nil. A file without faces is an error. Limit
// violations wrap [ErrLimit].
func ParseOBJ(name string, data []byte, lim Limits) (*Mesh, error) {
	m, _, err := parseOBJ(name, data, lim.WithDefaults())
	return m, err
}

func parseOBJ(name string, data []byte, lim Limits) (*Mesh, objStats, error) {
	if int64(len(data)) > lim.MaxFileBytes {
		return nil, objStats{}, ParseErrors{tooBig(name, int64(len(data)), lim.MaxFileBytes)}
	}
	sc := scratchPool.Get().(*scratch)
	p := objParser{name: name, lim: lim, sc: sc}
	p.run(data)
	defer p.release()
	st := objStats{Positions: len(p.pos) / 3, TexCoords: len(p.tex) / 2, Normals: len(p.nrm) / 3, Faces: p.faces}
	if len(p.errs) == 0 && len(p.idx) == 0 {
		p.errs = append(p.errs, &ParseError{File: name, Msg: "no faces: a mesh needs at least one f statement"})
	}
	if len(p.errs) > 0 {
		return nil, st, p.errs
	}
	if p.needNormals {
		p.computeNormals()
	}
	m := &Mesh{Vertices: slices.Clip(p.verts), Indices: slices.Clip(p.idx)}
	m.computeBounds()
	return m, st, nil
}

// vkey identifies one distinct corner (output vertex): position, texcoord and normal indices
// (-1 when absent), chained per position for de-duplication.
type vkey struct {
	p, t, n int32
	next    int32 // next output vertex with the same position, or -1
}

type objParser struct {
	name string
	lim  Limits
	sc   *scratch

	pos, tex, nrm []float32 // 3, 2 and 3 floats per v, vt, vn statement
	head          []int32   // per position: first output vertex using it, or -1
	keys          []vkey    // per output vertex
	verts         []float32 // output, interleaved
	idx           []uint32  // output triangles
	corners       []uint32  // scratch: output vertices of the current face

	joined []byte       // a line continued with backslashes
	xy     [][2]float64 // the current face on its plane (triangulation)
	// clipWork counts the steps of ear clipping concave faces (bounded by maxClipWork).
	clipWork int

	faces       int
	needNormals bool
	errs        ParseErrors
	stop        bool
}

func (p *objParser) run(data []byte) {
	nul := bytes.IndexByte(data, 0)
	switch {
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		p.fail(1, 1, "the file is UTF-16 text (it starts with a UTF-16 byte order mark); OBJ files are ASCII or UTF-8: save it as UTF-8")
		return
	case nul >= 0 && nul < 1024:
		p.fail(1, 1, "the file is not text: it has NUL bytes near the start (UTF-16, or binary?); OBJ files are ASCII or UTF-8")
		return
	case nul >= 0:
		line := 1 + bytes.Count(data[:nul], []byte{'\n'})
		p.fail(line, nul-bytes.LastIndexByte(data[:nul], '\n'), "a NUL byte: the file is not text (binary?); OBJ files are ASCII or UTF-8")
		return
	}
	data = bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF}) // a UTF-8 byte order mark
	p.reserve(data)
	for lineNo, start := 1, 0; start < len(data) && !p.stop; lineNo++ {
		var line []byte
		line, start = nextLine(data, start)
		first := lineNo
		if continued(line) {
			// A backslash at the end of a line continues it on the next (the spec's "\" rule).
			buf := append(p.joined[:0], bytes.TrimRight(line, " \t\r\v\f")...)
			buf = buf[:len(buf)-1]
			for start < len(data) {
				var next []byte
				next, start = nextLine(data, start)
				lineNo++
				buf = append(buf, ' ')
				if !continued(next) {
					buf = append(buf, next...)
					break
				}
				next = bytes.TrimRight(next, " \t\r\v\f")
				buf = append(buf, next[:len(next)-1]...)
			}
			p.joined, line = buf, buf
		}
		p.line(first, line)
	}
}

// nextLine returns the line starting at data[start] (without its '\n') and where the next starts.
func nextLine(data []byte, start int) ([]byte, int) {
	end := bytes.IndexByte(data[start:], '\n')
	if end < 0 {
		return data[start:], len(data)
	}
	return data[start : start+end], start + end + 1
}

// continued reports whether line ends with a backslash (spaces after it allowed).
func continued(line []byte) bool {
	t := bytes.TrimRight(line, " \t\r\v\f")
	return len(t) > 0 && t[len(t)-1] == '\\'
}

// scratch holds the parser's temporary lists between parses (through scratchPool), so that
// parsing many files allocates little more than the meshes themselves.
type scratch struct {
	pos, tex, nrm []float32
	head          []int32
	keys          []vkey
	acc           []float64
	corners       []uint32
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// maxPooledFloats bounds the lists kept for reuse: scratch from a huge file is left to the GC.
const maxPooledFloats = 1 << 20

// reuse returns s emptied if it can hold n elements, else a new slice of capacity n.
func reuse[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, 0, n)
	}
	return s[:0]
}

// release hands the temporary lists back to the pool.
func (p *objParser) release() {
	if cap(p.pos) > maxPooledFloats || cap(p.sc.acc) > maxPooledFloats || cap(p.keys) > maxPooledFloats/4 {
		return
	}
	p.sc.pos, p.sc.tex, p.sc.nrm, p.sc.head, p.sc.keys, p.sc.corners = p.pos, p.tex, p.nrm, p.head, p.keys, p.corners
	scratchPool.Put(p.sc)
	p.sc = nil
}

// reserve sizes the lists from a quick count of the statements (capped by the limits), so big
// files are parsed without re-allocating and copying as the lists grow.
func (p *objParser) reserve(data []byte) {
	var nv, nvt, nvn, nf int
	for i := 0; i < len(data); {
		if i+2 < len(data) {
			switch data[i] {
			case 'v':
				switch data[i+1] {
				case ' ', '\t':
					nv++
				case 't':
					nvt++
				case 'n':
					nvn++
				}
			case 'f':
				nf++
			}
		}
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
	}
	maxV := p.lim.MaxVertices
	nv, nvt, nvn = min(nv, maxV), min(nvt, maxV), min(nvn, maxV)
	p.pos = reuse(p.sc.pos, 3*nv)
	p.head = reuse(p.sc.head, nv)
	p.tex = reuse(p.sc.tex, 2*nvt)
	p.nrm = reuse(p.sc.nrm, 3*nvn)
	p.corners = p.sc.corners[:0]
	// Most files have about one distinct corner per position (more when vt/vn split them).
	p.keys = reuse(p.sc.keys, nv)
	p.verts = make([]float32, 0, FloatsPerVertex*nv)
	p.idx = make([]uint32, 0, 3*min(nf, p.lim.MaxTriangles))
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

func tokenEnd(b []byte, i int) int {
	for i < len(b) && !isSpace(b[i]) {
		i++
	}
	return i
}

func (p *objParser) fail(line, col int, format string, args ...any) {
	p.errs = append(p.errs, &ParseError{File: p.name, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)})
	if len(p.errs) >= MaxReportedErrors {
		p.stop = true
	}
}

func (p *objParser) failLimit(line, col int, what string, limit int) {
	p.errs = append(p.errs, &ParseError{File: p.name, Line: line, Col: col,
		Msg: fmt.Sprintf("too many %s (limit %d)", what, limit), Err: ErrLimit})
	p.stop = true
}

func (p *objParser) line(lineNo int, line []byte) {
	if k := bytes.IndexByte(line, '#'); k >= 0 {
		line = line[:k] // a comment, also after a statement ("v 1 2 3 # top")
	}
	i := skipSpace(line, 0)
	if i == len(line) {
		return
	}
	j := tokenEnd(line, i)
	switch string(line[i:j]) {
	case "v":
		if p.attribute(lineNo, line, i, j, &p.pos, 3, 3, 7, "vertices") {
			p.head = append(p.head, -1)
		}
	case "vt":
		p.attribute(lineNo, line, i, j, &p.tex, 2, 1, 3, "texture coordinates")
	case "vn":
		p.attribute(lineNo, line, i, j, &p.nrm, 3, 3, 3, "normals")
	case "f":
		p.face(lineNo, line, j, i)
	}
	// Everything else (o, g, s, usemtl, mtllib, l, p, vp, …) is tolerated and ignored.
}

// attribute parses a v, vt or vn statement (keyword at line[kw:end]) of minN to maxN numbers
// and appends the first width of them (missing ones as 0) to *list. It reports false after
// recording an error.
func (p *objParser) attribute(lineNo int, line []byte, kw, end int, list *[]float32, width, minN, maxN int, what string) bool {
	if len(*list)/width >= p.lim.MaxVertices {
		p.failLimit(lineNo, kw+1, what, p.lim.MaxVertices)
		return false
	}
	var vals [3]float32
	n := 0
	i := skipSpace(line, end)
	for ; i < len(line); i = skipSpace(line, i) {
		f, next, msg := scanFloat(line, i)
		if msg != "" && n >= width && n < maxN {
			// Columns that are read and ignored (w, or a vertex colour) may be nan or inf.
			tok := line[i:tokenEnd(line, i)]
			if _, err := strconv.ParseFloat(string(tok), 64); err == nil || errors.Is(err, strconv.ErrRange) {
				f, next, msg = 0, i+len(tok), ""
			}
		}
		if msg != "" {
			p.fail(lineNo, i+1, "%s %s", msg, quote(line[i:tokenEnd(line, i)]))
			return false
		}
		if n == maxN {
			p.fail(lineNo, i+1, "%s: too many values (at most %d)", line[kw:end], maxN)
			return false
		}
		if n < width {
			vals[n] = f
		}
		n++
		i = next
	}
	if n < minN {
		p.fail(lineNo, len(line)+1, "%s needs at least %d numbers, got %d", line[kw:end], minN, n)
		return false
	}
	*list = append(*list, vals[:width]...)
	return true
}

func (p *objParser) face(lineNo int, line []byte, i, kwCol int) {
	p.faces++
	p.corners = p.corners[:0]
	for i = skipSpace(line, i); i < len(line); i = skipSpace(line, i) {
		start := i
		end := tokenEnd(line, i)
		pv, pt, pn, ok := p.corner(lineNo, line[:end], i)
		if !ok {
			return
		}
		if len(p.corners) == p.lim.MaxFaceVertices {
			p.failLimit(lineNo, start+1, "vertices in one face", p.lim.MaxFaceVertices)
			return
		}
		k, ok := p.outVertex(pv, pt, pn)
		if !ok {
			p.failLimit(lineNo, start+1, "distinct vertices", p.lim.MaxVertices)
			return
		}
		p.corners = append(p.corners, k)
		i = end
	}
	n := len(p.corners)
	if n < 3 {
		p.fail(lineNo, kwCol+1, "face has %s, needs at least 3", words.Count(n, "vertex", "vertices"))
		return
	}
	if len(p.idx)/3+n-2 > p.lim.MaxTriangles {
		p.failLimit(lineNo, kwCol+1, "triangles", p.lim.MaxTriangles)
		return
	}
	p.triangulate(lineNo, kwCol)
}

// corner parses one face corner tok[i:] ("v", "v/vt", "v//vn" or "v/vt/vn") and resolves its
// indices to 0-based list positions (-1 when absent).
func (p *objParser) corner(lineNo int, tok []byte, i int) (pv, pt, pn int, ok bool) {
	start := i
	bad := func() (int, int, int, bool) {
		p.fail(lineNo, start+1, "bad face vertex %s (want v, v/vt, v//vn or v/vt/vn)", quote(tok[start:]))
		return 0, 0, 0, false
	}
	// "v", "v/vt", "v//vn" or "v/vt/vn"; empty slots mean absent ("1//", "2/2/", "3/").
	var idx, from, to [3]int
	var has [3]bool
	for k := 0; ; k++ {
		if k == 0 || i < len(tok) && tok[i] != '/' {
			v, end, ok := scanInt(tok, i)
			if !ok {
				return bad()
			}
			idx[k], from[k], to[k], has[k] = v, i, end, true
			i = end
		}
		if i == len(tok) {
			break
		}
		if tok[i] != '/' || k == 2 {
			return bad()
		}
		i++
	}
	counts := [3]int{len(p.pos) / 3, len(p.tex) / 2, len(p.nrm) / 3}
	out := [3]int{-1, -1, -1}
	for k := range 3 {
		if !has[k] {
			continue
		}
		if out[k], ok = p.resolve(lineNo, from[k], idx[k], counts[k], cornerParts[k], tok[from[k]:to[k]]); !ok {
			return 0, 0, 0, false
		}
	}
	return out[0], out[1], out[2], true
}

var cornerParts = [3]string{"vertex", "texture coordinate", "normal"}

// resolve turns a 1-based or negative OBJ index into a 0-based one for a list of count items;
// text is the index as written, for messages.
func (p *objParser) resolve(lineNo, col, idx, count int, what string, text []byte) (int, bool) {
	switch {
	case idx > 0 && idx <= count:
		return idx - 1, true
	case idx < 0 && -idx <= count:
		return count + idx, true
	case idx == 0:
		p.fail(lineNo, col+1, "%s index 0 is invalid (OBJ indices start at 1; negative ones count back from the last)", what)
	default:
		if len(text) > 24 {
			text = append(text[:24:24], "…"...)
		}
		p.fail(lineNo, col+1, "%s index %s out of range (%d defined so far)", what, text, count)
	}
	return 0, false
}

// outVertex returns the output vertex for the triple (pv, pt, pn), creating it if needed.
func (p *objParser) outVertex(pv, pt, pn int) (uint32, bool) {
	t, n := int32(pt), int32(pn)
	for k := p.head[pv]; k >= 0; k = p.keys[k].next {
		if key := &p.keys[k]; key.t == t && key.n == n {
			return uint32(k), true
		}
	}
	if len(p.keys) >= p.lim.MaxVertices {
		return 0, false
	}
	k := int32(len(p.keys))
	p.keys = append(p.keys, vkey{p: int32(pv), t: t, n: n, next: p.head[pv]})
	p.head[pv] = k
	pos := p.pos[pv*3 : pv*3+3]
	var nx, ny, nz, u, v float32
	if pn >= 0 {
		nx, ny, nz = p.nrm[pn*3], p.nrm[pn*3+1], p.nrm[pn*3+2]
	} else {
		p.needNormals = true
	}
	if pt >= 0 {
		u, v = p.tex[pt*2], p.tex[pt*2+1]
	}
	p.verts = append(p.verts, pos[0], pos[1], pos[2], nx, ny, nz, u, v)
	return uint32(k), true
}

// computeNormals gives every output vertex without a file normal the normalized sum of the
// (area-weighted) face normals of the triangles that use its position without a normal.
func (p *objParser) computeNormals() {
	acc := reuse(p.sc.acc, len(p.pos))[:len(p.pos)] // 3 per position
	clear(acc)
	p.sc.acc = acc
	verts, keys, idx := p.verts, p.keys, p.idx
	fileNormals := len(p.nrm) > 0
	for t := 0; t+2 < len(idx); t += 3 {
		a, b, c := idx[t], idx[t+1], idx[t+2]
		ka, kb, kc := keys[a], keys[b], keys[c]
		if fileNormals && ka.n >= 0 && kb.n >= 0 && kc.n >= 0 {
			continue
		}
		pa := verts[a*FloatsPerVertex : a*FloatsPerVertex+3 : a*FloatsPerVertex+3]
		pb := verts[b*FloatsPerVertex : b*FloatsPerVertex+3 : b*FloatsPerVertex+3]
		pc := verts[c*FloatsPerVertex : c*FloatsPerVertex+3 : c*FloatsPerVertex+3]
		ax, ay, az := float64(pa[0]), float64(pa[1]), float64(pa[2])
		e1x, e1y, e1z := float64(pb[0])-ax, float64(pb[1])-ay, float64(pb[2])-az
		e2x, e2y, e2z := float64(pc[0])-ax, float64(pc[1])-ay, float64(pc[2])-az
		cx, cy, cz := e1y*e2z-e1z*e2y, e1z*e2x-e1x*e2z, e1x*e2y-e1y*e2x
		if ka.n < 0 {
			addNormal(acc, ka.p, cx, cy, cz)
		}
		if kb.n < 0 {
			addNormal(acc, kb.p, cx, cy, cz)
		}
		if kc.n < 0 {
			addNormal(acc, kc.p, cx, cy, cz)
		}
	}
	for k := range p.keys {
		key := &p.keys[k]
		if key.n >= 0 {
			continue
		}
		s := acc[key.p*3 : key.p*3+3]
		l := math.Sqrt(s[0]*s[0] + s[1]*s[1] + s[2]*s[2])
		out := p.verts[k*FloatsPerVertex+3 : k*FloatsPerVertex+6]
		if l == 0 || math.IsInf(l, 0) || math.IsNaN(l) { // only degenerate triangles: point up
			out[0], out[1], out[2] = 0, 1, 0
			continue
		}
		out[0], out[1], out[2] = float32(s[0]/l), float32(s[1]/l), float32(s[2]/l)
	}
}

func addNormal(acc []float64, p int32, x, y, z float64) {
	s := acc[p*3 : p*3+3 : p*3+3]
	s[0] += x
	s[1] += y
	s[2] += z
}

// scanInt parses an optionally signed decimal integer at b[i:], stopping at the first
// non-digit. Values beyond ±2^31 saturate (they are out of range for any list).
func scanInt(b []byte, i int) (v, end int, ok bool) {
	neg := false
	if i < len(b) && (b[i] == '-' || b[i] == '+') {
		neg = b[i] == '-'
		i++
	}
	start := i
	for ; i < len(b); i++ {
		c := b[i] - '0'
		if c > 9 {
			break
		}
		if v < 1<<31 {
			v = v*10 + int(c)
		}
	}
	if i == start {
		return 0, i, false
	}
	if neg {
		v = -v
	}
	return v, i, true
}

var pow10f32 = [...]float32{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10}

// scanFloat parses a decimal number ([+-]digits[.digits][(e|E)[+-]digits], at least one digit
// in the mantissa) at b[i:] that must end at whitespace or the end of b. It returns the value
// correctly rounded to float32, the end offset, and an error message ("" when ok). NaN, Inf,
// hex floats and values beyond float32 range are refused.
func scanFloat(b []byte, i int) (f float32, end int, msg string) {
	start := i
	neg := false
	if i < len(b) && (b[i] == '-' || b[i] == '+') {
		neg = b[i] == '-'
		i++
	}
	var mant uint64
	nd, exp := 0, 0 // significant digits kept in mant; decimal exponent
	digits, exact := false, true
	for ; i < len(b); i++ {
		c := b[i] - '0'
		if c > 9 {
			break
		}
		digits = true
		switch {
		case mant == 0 && c == 0: // leading zero
		case nd < 19:
			mant = mant*10 + uint64(c)
			nd++
		default:
			exp++
			exact = false
		}
	}
	if i < len(b) && b[i] == '.' {
		for i++; i < len(b); i++ {
			c := b[i] - '0'
			if c > 9 {
				break
			}
			digits = true
			switch {
			case mant == 0 && c == 0:
				exp--
			case nd < 19:
				mant = mant*10 + uint64(c)
				nd++
				exp--
			default:
				exact = false
			}
		}
	}
	if !digits {
		return 0, i, "bad number"
	}
	if i < len(b) && b[i]|0x20 == 'e' {
		i++
		eneg := false
		if i < len(b) && (b[i] == '-' || b[i] == '+') {
			eneg = b[i] == '-'
			i++
		}
		e, estart := 0, i
		for ; i < len(b) && b[i]-'0' <= 9; i++ {
			if e < 100000 {
				e = e*10 + int(b[i]-'0')
			}
		}
		if i == estart {
			return 0, i, "bad number"
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if i < len(b) && !isSpace(b[i]) {
		return 0, i, "bad number"
	}
	switch {
	case mant == 0:
		// zero
	case exact && mant <= 1<<24 && exp >= -10 && exp <= 10:
		// Both operands are exact float32 values, so one IEEE operation rounds correctly.
		f = float32(mant)
		if exp < 0 {
			f /= pow10f32[-exp]
		} else {
			f *= pow10f32[exp]
		}
	default:
		// Rare: long mantissas or big exponents. The text is validated above, and the
		// conversion does not allocate for short numbers.
		v, err := strconv.ParseFloat(string(b[start:i]), 32)
		if err != nil || math.IsInf(v, 0) {
			return 0, i, "number out of float32 range"
		}
		return float32(v), i, ""
	}
	if neg {
		f = -f
	}
	return f, i, ""
}
