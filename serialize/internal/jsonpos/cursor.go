package jsonpos

import "math"

// Cursor reads one value of a shape its caller knows straight from a [Decoder]'s buffered input, without a
// tree: the fast way in for the many alike values of a big file. It reads only what is buffered, only the
// plainest JSON (strings of printable ASCII without escapes, numbers within the limits) and checks the grammar
// as the Decoder does; anything else makes a read report false, and the caller then reads the value again with
// [Decoder.Value], which says what is wrong, if anything. Nothing of the Decoder changes until [Decoder.Commit].
type Cursor struct {
	buf   []byte // the buffered input, from the Decoder's position
	i     int    // next byte of buf
	line  int32
	lnBuf int   // index in buf of the current line's first byte (may be negative)
	base  int64 // input offset of buf[0]
	depth int   // containers still open
	room  int   // how deep containers may nest, from the Decoder's position (MaxDepth)
	// What a tree of the same value would hold in the arena (MaxValues, MaxArenaBytes): values and bytes.
	vals, bytes int
	lim         Limits
}

// Cursor returns a cursor at the Decoder's position over at least want buffered bytes, if the input has them
// (fewer at its end); ok is false after an error.
func (d *Decoder) Cursor(want int) (c Cursor, ok bool) {
	if d.err != nil {
		return Cursor{}, false
	}
	d.ensure(want)
	if d.err != nil {
		return Cursor{}, false
	}
	room := 1 << 30
	if d.lim.MaxDepth > 0 {
		room = d.lim.MaxDepth - len(d.open)
	}
	at := d.base + int64(d.pos)
	return Cursor{buf: d.buf[d.pos:], line: d.line, lnBuf: int(d.lineStart - at), base: at, room: room, lim: d.lim}, true
}

// Commit moves the Decoder past what c read: c must have read one whole value, and its reads must all have
// succeeded.
func (d *Decoder) Commit(c *Cursor) {
	d.pos += c.i
	d.line = c.line
	d.lineStart = c.base + int64(c.lnBuf)
}

// Within reports whether what c read would fit a Decoder's arena limits (MaxValues, MaxArenaBytes) with half of
// each to spare: a tree's count differs a little from the cursor's, and a value near a limit is left to the
// Decoder, which reports it.
func (c *Cursor) Within() bool {
	return (c.lim.MaxValues <= 0 || 2*c.vals <= c.lim.MaxValues) &&
		(c.lim.MaxArenaBytes <= 0 || 2*c.bytes <= c.lim.MaxArenaBytes)
}

// ws skips whitespace and returns the next byte (0 at the end of the buffered input).
func (c *Cursor) ws() byte {
	for c.i < len(c.buf) {
		switch b := c.buf[c.i]; b {
		case ' ', '\t', '\r':
			c.i++
		case '\n':
			c.i++
			c.line++
			c.lnBuf = c.i
		default:
			return b
		}
	}
	return 0
}

// Open reads the opening bracket of an object ('{') or an array ('[').
func (c *Cursor) Open(b byte) bool {
	if c.ws() != b || c.depth+1 > c.room {
		return false
	}
	c.i++
	c.depth++
	c.vals++
	return true
}

// Next reads what comes before the next member or item of the innermost open container, whose closing bracket
// is end ('}' or ']'), first telling whether none came before it: more is false after the closing bracket.
func (c *Cursor) Next(end byte, first bool) (more, ok bool) {
	b := c.ws()
	if b == end {
		c.i++
		c.depth--
		return false, true
	}
	if first {
		return true, b != 0
	}
	if b != ',' {
		return false, false
	}
	c.i++
	return true, true
}

// Member reads what comes before the next member of the innermost open object (first: none came before it) and
// its key, as Next and Key do: more is false after the closing '}'.
func (c *Cursor) Member(first bool) (key []byte, more, ok bool) {
	if more, ok = c.Next('}', first); !more || !ok {
		return nil, false, ok
	}
	key, ok = c.Key()
	return key, ok, ok
}

// Key reads a member's key and the ':' after it; its bytes are the input's, valid until the Decoder reads on.
func (c *Cursor) Key() (key []byte, ok bool) {
	key, ok = c.String()
	if !ok || c.ws() != ':' {
		return nil, false
	}
	c.i++
	c.vals-- // a key is no value of its own in a tree
	return key, true
}

// String reads a string of printable ASCII without escapes; its bytes are the input's.
func (c *Cursor) String() (s []byte, ok bool) {
	if c.ws() != '"' {
		return nil, false
	}
	start := c.i + 1
	for j := start; j < len(c.buf); j++ {
		switch b := c.buf[j]; {
		case b == '"':
			s = c.buf[start:j]
			if c.lim.MaxString > 0 && len(s) > c.lim.MaxString {
				return nil, false
			}
			c.i = j + 1
			c.vals++
			c.bytes += len(s)
			return s, true
		case b < 0x20 || b == '\\' || b >= 0x80:
			return nil, false
		}
	}
	return nil, false
}

// Number reads a number (its literal, checked against the JSON grammar; what follows it is the caller's to
// check, as the end of a member or an item).
func (c *Cursor) Number() (lit []byte, at Pos, ok bool) {
	b := c.ws()
	start := c.i
	j := start
	digits := func() int {
		n := 0
		for j < len(c.buf) && c.buf[j] >= '0' && c.buf[j] <= '9' {
			j++
			n++
		}
		return n
	}
	if b == '-' {
		j++
	}
	switch {
	case j < len(c.buf) && c.buf[j] == '0':
		j++
	case digits() == 0:
		return nil, Pos{}, false
	}
	if j < len(c.buf) && c.buf[j] == '.' {
		j++
		if digits() == 0 {
			return nil, Pos{}, false
		}
	}
	if j < len(c.buf) && (c.buf[j] == 'e' || c.buf[j] == 'E') {
		j++
		if j < len(c.buf) && (c.buf[j] == '+' || c.buf[j] == '-') {
			j++
		}
		if digits() == 0 {
			return nil, Pos{}, false
		}
	}
	if c.lim.MaxString > 0 && j-start > c.lim.MaxString {
		return nil, Pos{}, false
	}
	at = Pos{int(c.line), start - c.lnBuf + 1}
	c.i = j
	c.vals++
	c.bytes += j - start
	return c.buf[start:j], at, true
}

// Bool reads true or false.
func (c *Cursor) Bool() (v, ok bool) {
	b := c.ws()
	rest := c.buf[c.i:]
	switch {
	case b == 't' && len(rest) >= 4 && string(rest[:4]) == "true":
		c.i += 4
		v = true
	case b == 'f' && len(rest) >= 5 && string(rest[:5]) == "false":
		c.i += 5
	default:
		return false, false
	}
	c.vals++
	return v, true
}

// ParseFloat converts a number's literal as [Value.Float] does.
func ParseFloat(lit []byte, bits int) (float64, error) {
	f, err := parseFloat(lit, bits)
	if err != nil || math.IsInf(f, 0) {
		return 0, ErrRange
	}
	return f, nil
}

// NewCursor returns a cursor over data, which holds whole values (the text Inline returned, read again).
func NewCursor(data []byte, lim Limits) Cursor {
	room := 1 << 30
	if lim.MaxDepth > 0 {
		room = lim.MaxDepth
	}
	return Cursor{buf: data, line: 1, room: room, lim: lim}
}

// Peek returns the next byte that is not whitespace (0 at the end of the buffered input).
func (c *Cursor) Peek() byte { return c.ws() }

// Inline reads a value written exactly as [AppendInline] writes it — objects as { "k": v, "l": w }, arrays as
// [a, b], {} and [] when empty, no other whitespace, and strings, numbers and literals as the other reads take
// them — and returns its bytes, which are then that value's inline form.
func (c *Cursor) Inline() ([]byte, bool) {
	c.ws()
	start := c.i
	if !c.inline() {
		return nil, false
	}
	return c.buf[start:c.i], true
}

func (c *Cursor) inline() bool {
	if c.i >= len(c.buf) {
		return false
	}
	switch b := c.buf[c.i]; b {
	case '{', '[':
		empty, open, end := "{}", "{ ", " }"
		if b == '[' {
			empty, open, end = "[]", "[", "]"
		}
		if c.depth+1 > c.room {
			return false
		}
		c.vals++
		if c.has(empty) {
			c.i += 2
			return true
		}
		if !c.has(open) {
			return false
		}
		c.i += len(open)
		c.depth++
		for first := true; ; first = false {
			if !first {
				if c.has(end) {
					c.i += len(end)
					c.depth--
					return true
				}
				if !c.has(", ") {
					return false
				}
				c.i += 2
			}
			if b == '{' {
				if !c.has(`"`) {
					return false
				}
				if _, ok := c.String(); !ok || !c.has(": ") {
					return false
				}
				c.vals-- // a key is no value of its own in a tree
				c.i += 2
			}
			if !c.inline() {
				return false
			}
		}
	case '"':
		_, ok := c.String()
		return ok
	case 't', 'f':
		_, ok := c.Bool()
		return ok
	case 'n':
		if !c.has("null") {
			return false
		}
		c.i += 4
		c.vals++
		return true
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		_, _, ok := c.Number()
		return ok
	}
	return false
}

// has reports whether the input at the cursor starts with s.
func (c *Cursor) has(s string) bool {
	return len(c.buf)-c.i >= len(s) && string(c.buf[c.i:c.i+len(s)]) == s
}
