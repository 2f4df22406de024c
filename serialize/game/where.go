package game

import (
	"encoding/binary"
	"math"

	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// Where the game components were in the export. The loader keeps each component as compact
// JSON; to say where a value the game refuses was written it also keeps, per component, a few
// breakpoints (compact offset, line, column). Between two breakpoints the file is taken to be in
// the one-line canonical spacing `voltex-editor export` writes (`{ "a": 1, "b": [1, 2] }`), so an
// exported component needs one breakpoint and a hand-edited one a breakpoint where its layout
// departs from that: every value and key start maps exactly either way. The breakpoints of an
// entity are varints in Scene.where, at Entity.where-1.

// breakpoint: the value or key at compact offset off starts at line:col of the file; extra is
// the number of spaces the canonical spacing has before off (kept while compacting only).
type breakpoint struct{ off, extra, line, col int }

// compacter writes components as compact JSON (the bytes json.Compact makes of them) and
// records their breakpoints; the loader reuses one for every component.
type compacter struct {
	buf   []byte
	extra int // spaces the canonical one-line form has before len(buf)
	bps   []breakpoint
	table []byte // the current entity's components: count, then name, breakpoints
	n     int    // components in table
}

// component compacts v (a component's value) and records its breakpoints under name in the
// entity's table; it returns the compact JSON, which the caller keeps.
func (c *compacter) component(name string, v *jsonpos.Value) []byte {
	c.buf, c.extra, c.bps = c.buf[:0], 0, c.bps[:0]
	c.value(v)
	c.n++
	c.table = binary.AppendUvarint(c.table, uint64(len(name)))
	c.table = append(c.table, name...)
	c.table = binary.AppendUvarint(c.table, uint64(len(c.bps)))
	prev := breakpoint{}
	for _, b := range c.bps {
		c.table = binary.AppendUvarint(c.table, uint64(b.off-prev.off))
		c.table = binary.AppendUvarint(c.table, uint64(b.line-prev.line))
		c.table = binary.AppendUvarint(c.table, uint64(b.col))
		prev = b
	}
	return append([]byte(nil), c.buf...)
}

// mark records that the value or key about to be written starts at p, unless the canonical
// spacing from the last breakpoint predicts it.
func (c *compacter) mark(p jsonpos.Pos) {
	off := len(c.buf)
	if n := len(c.bps); n > 0 {
		b := c.bps[n-1]
		if p.Line == b.line && p.Col == b.col+(off-b.off)+(c.extra-b.extra) {
			return
		}
	}
	c.bps = append(c.bps, breakpoint{off: off, extra: c.extra, line: p.Line, col: p.Col})
}

func (c *compacter) value(v *jsonpos.Value) {
	c.mark(v.Pos())
	switch v.Kind() {
	case jsonpos.String:
		c.buf = jsonpos.AppendString(c.buf, v.Text())
	case jsonpos.Array:
		if v.Len() == 0 {
			c.buf = append(c.buf, "[]"...)
			return
		}
		c.buf = append(c.buf, '[')
		for i := range v.Len() {
			if i > 0 {
				c.buf = append(c.buf, ',')
				c.extra++
			}
			c.value(v.Index(i))
		}
		c.buf = append(c.buf, ']')
	case jsonpos.Object:
		if v.Len() == 0 {
			c.buf = append(c.buf, "{}"...)
			return
		}
		c.buf = append(c.buf, '{')
		c.extra++
		for i := range v.Len() {
			m := v.Index(i)
			if i > 0 {
				c.buf = append(c.buf, ',')
				c.extra++
			}
			c.mark(m.KeyPos())
			c.buf = jsonpos.AppendString(c.buf, m.KeyBytes())
			c.buf = append(c.buf, ':')
			c.extra++
			c.value(m)
		}
		c.extra++
		c.buf = append(c.buf, '}')
	default: // null, true, false, numbers as written
		c.buf = jsonpos.AppendInline(c.buf, v)
	}
}

// endEntity moves the entity's table into the scene and returns the entity's reference to it
// (0 for none: no game components, or a table beyond 4 GiB).
func (c *compacter) endEntity(s *Scene) uint32 {
	if c.n == 0 {
		return 0
	}
	at := len(s.where) + 1
	var ref uint32
	if at <= math.MaxUint32 {
		ref = uint32(at)
		s.where = binary.AppendUvarint(s.where, uint64(c.n))
		s.where = append(s.where, c.table...)
	}
	c.table, c.n = c.table[:0], 0
	return ref
}

// Where returns the line and column (1-based, columns in bytes, as in the loader's problems) in
// the export of byte off of the JSON kept for entity i's component name in
// [Entity.Components], so that a value a game refuses can be reported where it was written (in
// [Scene.File]); serialize.SpawnExport does so. off is where a value or key starts in that JSON
// (0: the whole component) — those map exactly, whatever the file's layout. It returns 0, 0 when
// the position is not known: the scene was not read by this package, or the entity or component
// was changed, moved or added since.
func (s *Scene) Where(i int, name string, off int) (line, col int) {
	if i < 0 || i >= len(s.Entities) {
		return 0, 0
	}
	e := &s.Entities[i]
	raw, ok := e.Components[name]
	if !ok || e.where == 0 || int(e.where) > len(s.where) || off < 0 || off > len(raw) {
		return 0, 0
	}
	r := &uvarints{b: s.where[e.where-1:]}
	for range r.next() {
		nl := r.next()
		if r.bad || nl > len(r.b) {
			return 0, 0
		}
		this := string(r.b[:nl]) == name
		r.b = r.b[nl:]
		var at, last breakpoint
		for range r.next() {
			at = breakpoint{off: at.off + r.next(), line: at.line + r.next(), col: r.next()}
			if r.bad {
				return 0, 0
			}
			if at.off <= off {
				last = at
			}
		}
		if this {
			if last.line == 0 {
				return 0, 0
			}
			return last.line, last.col + spaced(raw, last.off, off)
		}
	}
	return 0, 0
}

// uvarints reads a table of varints; a broken table reads as zeros and sets bad.
type uvarints struct {
	b   []byte
	bad bool
}

func (r *uvarints) next() int {
	n, k := binary.Uvarint(r.b)
	if k <= 0 || n > math.MaxInt32 {
		r.b, r.bad = nil, true
		return 0
	}
	r.b = r.b[k:]
	return int(n)
}

// spaced returns how many bytes raw[from:to] (compact JSON, from at a value or key start) takes
// in the canonical one-line spacing.
func spaced(raw []byte, from, to int) int {
	n, str := to-from, false
	for j := from; j < to; j++ {
		switch c := raw[j]; {
		case str && c == '\\':
			j++
		case c == '"':
			str = !str
		case str:
		case c == ',' || c == ':':
			n++
		case c == '{' && j+1 < len(raw) && raw[j+1] != '}':
			n++
		case c == '}' && j > 0 && raw[j-1] != '{':
			n++
		}
	}
	return n
}
