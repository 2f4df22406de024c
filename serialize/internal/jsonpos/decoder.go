package jsonpos

import (
	"fmt"
	"github.com/voltex-editor/voltex/internal/words"
	"io"
	"unicode/utf8"
)

// Limits bound what a [Decoder] accepts. A zero field means "no limit".
type Limits struct {
	MaxBytes  int64 // total input size
	MaxDepth  int   // nesting of arrays and objects; the outermost container is depth 1
	MaxString int   // length in bytes of one string (after unescaping) or number literal
	// MaxValues bounds the values held in a Decoder's arena between two
	// ResetArena calls (each value costs about 100 bytes of memory, so this
	// is what stops a small file of "[[[],[],…" from taking gigabytes).
	MaxValues int
	// MaxArenaBytes bounds the bytes of strings, keys and number literals
	// held in the arena between two ResetArena calls: with MaxValues, what
	// one piece of JSON read with Value may take in memory.
	MaxArenaBytes int
	// Unit names what one arena holds in the messages of those two limits
	// ("more than the limit of 1000 values in one entity"); default "piece
	// of JSON".
	Unit string
}

// SyntaxError reports broken JSON, or input over a [Limits] bound, at a
// position.
type SyntaxError struct {
	Pos    Pos
	Offset int64 // byte offset of the problem from the start of the input
	Msg    string
	Limit  bool // the input exceeded a Limits bound rather than breaking the grammar
}

// Error formats the error as "line:col: message".
func (e *SyntaxError) Error() string { return e.Pos.String() + ": " + e.Msg }

// Decoder reads JSON from an io.Reader (or a byte slice) and reports a
// position for everything. See the package documentation for the two ways
// to use it. A Decoder is not safe for concurrent use.
type Decoder struct {
	r    io.Reader
	buf  []byte
	pos  int   // next unread byte in buf
	base int64 // input offset of buf[0]
	eof  bool  // r has no more data
	err  error // sticky: once set, every call returns it
	lim  Limits

	line      int32
	lineStart int64 // input offset of the first byte of the current line
	nread     int64

	open  []byte // open containers of the streaming API: '{' or '['
	first []bool // whether the next member/item of each open container is the first

	bytes []byte  // arena for string contents, keys and number literals
	vals  []Value // arena for container children
	arena Arena   // the memory given by SwapArena, which bytes and vals are parts of until they outgrow it
	stack []Value // children of containers still being parsed

	// SkipCapture: the raw input consumed since buf[capFrom] is appended to capture (up to
	// capMax bytes) before buf moves.
	capturing bool
	capture   []byte
	capFrom   int
	capMax    int
}

const defaultBufSize = 64 << 10

// maxText is the longest string or number literal a Value holds: its length is 32 bits.
const maxText = 1<<32 - 1

// bounded is l with MaxString at most maxText (unlimited is that too).
func (l Limits) bounded() Limits {
	if l.MaxString <= 0 || l.MaxString > maxText {
		l.MaxString = maxText
	}
	return l
}

// NewDecoder returns a Decoder reading from r.
func NewDecoder(r io.Reader, lim Limits) *Decoder {
	d := &Decoder{r: r, buf: make([]byte, 0, defaultBufSize), lim: lim.bounded(), line: 1}
	d.skipBOM()
	return d
}

// NewBytesDecoder returns a Decoder over data, which it does not copy and
// which must not change while the Decoder is in use.
func NewBytesDecoder(data []byte, lim Limits) *Decoder {
	d := &Decoder{buf: data, eof: true, lim: lim.bounded(), line: 1, nread: int64(len(data))}
	if lim.MaxBytes > 0 && int64(len(data)) > lim.MaxBytes {
		d.err = &SyntaxError{Pos: Pos{1, 1}, Msg: fmt.Sprintf("input is larger than the limit of %s", words.Bytes(lim.MaxBytes)), Limit: true}
		return d
	}
	d.skipBOM()
	return d
}

// Parse parses a whole JSON document held in memory. The returned tree does
// not share memory with data.
func Parse(data []byte, lim Limits) (Value, error) {
	d := NewBytesDecoder(data, lim)
	v, err := d.Value()
	if err != nil {
		return Value{}, err
	}
	if err := d.Finish(); err != nil {
		return Value{}, err
	}
	return v, nil
}

func (d *Decoder) skipBOM() {
	for len(d.buf)-d.pos < 3 {
		if _, ok := d.more(); !ok {
			break
		}
	}
	b := d.buf[d.pos:]
	switch {
	case len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF:
		d.pos += 3
	case len(b) >= 2 && (b[0] == 0xFF && b[1] == 0xFE || b[0] == 0xFE && b[1] == 0xFF):
		d.err = &SyntaxError{Pos: Pos{1, 1}, Msg: "input is UTF-16 (it starts with a UTF-16 byte order mark); JSON files must be UTF-8"}
	}
}

// Offset returns how many input bytes have been consumed; useful for
// progress reporting.
func (d *Decoder) Offset() int64 { return d.base + int64(d.pos) }

// ResetArena recycles the memory of every [Value] returned so far; they must
// not be used afterwards.
func (d *Decoder) ResetArena() {
	clear(d.vals) // drop references into old byte arrays
	d.bytes, d.vals = d.bytes[:0], d.vals[:0]
}

// Arena is memory for the trees a Decoder builds (see [Decoder.SwapArena]).
type Arena struct {
	bytes []byte
	vals  []Value
}

// NewArena returns an arena with room for about nBytes of strings, keys and numbers and nVals values.
func NewArena(nBytes, nVals int) Arena {
	return Arena{bytes: make([]byte, 0, nBytes), vals: make([]Value, 0, nVals)}
}

// Keep starts the arena afresh after the values returned so far, as ResetArena does for the limits
// (MaxValues, MaxArenaBytes count from here), but without reusing their memory: they stay valid until
// the arena they are in is given again to SwapArena.
func (d *Decoder) Keep() {
	d.bytes = d.bytes[len(d.bytes):]
	d.vals = d.vals[len(d.vals):]
}

// Used reports whether the values returned since the arena was last started afresh (Keep, ResetArena,
// SwapArena) take at most nBytes and nVals of it.
func (d *Decoder) Used(nBytes, nVals int) bool { return len(d.bytes) <= nBytes && len(d.vals) <= nVals }

// Room reports whether what is left of the arena holds at least nBytes and nVals more.
func (d *Decoder) Room(nBytes, nVals int) bool {
	return cap(d.bytes)-len(d.bytes) >= nBytes && cap(d.vals)-len(d.vals) >= nVals
}

// SwapArena makes next the arena for the values that follow (from its start) and returns the arena
// given before it (the zero Arena the first time): the values returned so far stay valid until that
// arena is given to SwapArena again. The limits count from here, as after ResetArena.
func (d *Decoder) SwapArena(next Arena) Arena {
	prev := d.arena
	d.arena = next
	d.bytes, d.vals = next.bytes[:0], next.vals[:0]
	return prev
}

// Err returns the sticky error, if any.
func (d *Decoder) Err() error { return d.err }

// more reads more input into buf, keeping buf[d.pos:]; indices into buf
// move down by shift. It reports false at the end of the input, on a read
// error or when the size limit is exceeded (the latter two set d.err).
func (d *Decoder) more() (shift int, ok bool) {
	if d.eof || d.err != nil {
		return 0, false
	}
	if d.capturing && d.pos > d.capFrom {
		d.keep(d.buf[d.capFrom:d.pos])
		d.capFrom = d.pos
	}
	if d.pos > 0 {
		if d.capturing {
			d.capFrom -= d.pos
		}
		n := copy(d.buf, d.buf[d.pos:])
		shift = d.pos
		d.base += int64(d.pos)
		d.buf = d.buf[:n]
		d.pos = 0
	}
	if len(d.buf) == cap(d.buf) {
		nb := make([]byte, len(d.buf), 2*cap(d.buf)+1)
		copy(nb, d.buf)
		d.buf = nb
	}
	for {
		n, err := d.r.Read(d.buf[len(d.buf):cap(d.buf)])
		d.buf = d.buf[:len(d.buf)+n]
		d.nread += int64(n)
		if d.lim.MaxBytes > 0 && d.nread > d.lim.MaxBytes {
			d.err = &SyntaxError{Pos: d.posAt(len(d.buf) - n), Offset: d.base + int64(len(d.buf)-n),
				Msg: fmt.Sprintf("input is larger than the limit of %s", words.Bytes(d.lim.MaxBytes)), Limit: true}
			return shift, false
		}
		if err == io.EOF {
			d.eof = true
			return shift, n > 0
		}
		if err != nil {
			d.err = fmt.Errorf("%s: reading: %w", d.posAt(len(d.buf)), err)
			return shift, n > 0
		}
		if n > 0 {
			return shift, true
		}
	}
}

// ensure makes at least n bytes available at d.pos if the input has them.
func (d *Decoder) ensure(n int) {
	for len(d.buf)-d.pos < n {
		if _, ok := d.more(); !ok {
			return
		}
	}
}

func (d *Decoder) posAt(i int) Pos {
	off := d.base + int64(i)
	col := off - d.lineStart + 1
	if col > 1<<31-1 {
		col = 1<<31 - 1
	}
	return Pos{int(d.line), int(col)}
}

func (d *Decoder) fail(i int, format string, args ...any) error {
	if d.err == nil {
		d.err = &SyntaxError{Pos: d.posAt(i), Offset: d.base + int64(i), Msg: fmt.Sprintf(format, args...)}
	}
	return d.err
}

func (d *Decoder) failLimit(i int, format string, args ...any) error {
	if d.err == nil {
		d.err = &SyntaxError{Pos: d.posAt(i), Offset: d.base + int64(i), Msg: fmt.Sprintf(format, args...), Limit: true}
	}
	return d.err
}

// failEOF reports the end of input (or the sticky read/limit error that
// caused it).
func (d *Decoder) failEOF(what string) error {
	if d.err != nil {
		return d.err
	}
	return d.fail(len(d.buf), "unexpected end of input, expected %s", what)
}

// skipWS skips whitespace and returns the next byte without consuming it.
func (d *Decoder) skipWS() (byte, bool) {
	for {
		buf := d.buf
		i := d.pos
		for i < len(buf) {
			c := buf[i]
			switch c {
			case ' ', '\t', '\r':
				i++
				continue
			case '\n':
				i++
				d.line++
				d.lineStart = d.base + int64(i)
				continue
			}
			d.pos = i
			return c, true
		}
		d.pos = i
		if _, ok := d.more(); !ok {
			return 0, false
		}
	}
}

// describe names a byte for an error message.
func describe(c byte) string {
	switch {
	case c >= 0x20 && c < 0x7f:
		return fmt.Sprintf("%q", rune(c))
	case c >= 0x80:
		return fmt.Sprintf("byte 0x%02X", c)
	default:
		return fmt.Sprintf("control character U+%04X", c)
	}
}

// --- whole values ---

// Value parses the next complete value. The result points into the arena
// (see [Decoder.ResetArena]).
func (d *Decoder) Value() (Value, error) {
	if d.err != nil {
		return Value{}, d.err
	}
	return d.parseValue(len(d.open))
}

// Skip checks and discards the next value without building a tree, so its
// size does not matter; the arenas are left as they were.
func (d *Decoder) Skip() error {
	if d.err != nil {
		return d.err
	}
	return d.skipValue(len(d.open))
}

func (d *Decoder) skipValue(depth int) error {
	c, ok := d.skipWS()
	if !ok {
		return d.failEOF("a value")
	}
	nb := len(d.bytes)
	defer func() { d.bytes = d.bytes[:nb] }()
	switch c {
	case '{', '[':
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		if d.lim.MaxDepth > 0 && depth+1 > d.lim.MaxDepth {
			return d.failLimit(d.pos, "nesting is deeper than the limit of %d levels", d.lim.MaxDepth)
		}
		d.pos++
		c, ok := d.skipWS()
		if !ok {
			return d.failEOF(closeWhat(end))
		}
		if c == end {
			d.pos++
			return nil
		}
		for {
			if end == '}' {
				if _, _, err := d.parseKey(); err != nil {
					return err
				}
				d.bytes = d.bytes[:nb]
			}
			if err := d.skipValue(depth + 1); err != nil {
				return err
			}
			c, ok = d.skipWS()
			if !ok {
				return d.failEOF(closeWhat(end))
			}
			if c == end {
				d.pos++
				return nil
			}
			if c != ',' {
				return d.fail(d.pos, "unexpected %s, expected %s", describe(c), closeWhat(end))
			}
			d.pos++
		}
	}
	_, err := d.parseValue(depth) // a scalar
	return err
}

// SkipCapture is Skip that also returns the raw text of the value (from
// its first byte; leading whitespace is left out), appended to dst, and the
// position and offset where it starts. If the value is longer than limit
// bytes it fails with a limit error at its start (limit <= 0: no limit).
func (d *Decoder) SkipCapture(dst []byte, limit int) (raw []byte, start Pos, offset int64, err error) {
	if d.err != nil {
		return dst, Pos{}, 0, d.err
	}
	if _, ok := d.skipWS(); !ok {
		return dst, Pos{}, 0, d.failEOF("a value")
	}
	start, offset = d.posAt(d.pos), d.Offset()
	d.capturing, d.capture, d.capFrom, d.capMax = true, dst, d.pos, 0
	if limit > 0 {
		d.capMax = len(dst) + limit
	}
	err = d.skipValue(len(d.open))
	if err == nil {
		d.keep(d.buf[d.capFrom:d.pos])
	}
	raw = d.capture
	d.capturing, d.capture = false, nil
	if err == nil && limit > 0 && len(raw)-len(dst) > limit {
		err = &SyntaxError{Pos: start, Offset: offset, Limit: true,
			Msg: fmt.Sprintf("value is longer than the limit of %s that can be kept in memory", words.Bytes(int64(limit)))}
		d.err = err
	}
	return raw, start, offset, err
}

// keep appends b to the capture unless the capture is over its limit (the
// caller reports that once the value ends).
func (d *Decoder) keep(b []byte) {
	if d.capMax <= 0 || len(d.capture) <= d.capMax {
		d.capture = append(d.capture, b...)
	}
}

// NewBytesDecoderAt is NewBytesDecoder for data that was taken from a larger
// input at position start and byte offset offset (as SkipCapture returns
// them): positions and offsets are reported as in that input.
func NewBytesDecoderAt(data []byte, lim Limits, start Pos, offset int64) *Decoder {
	d := NewBytesDecoder(data, lim)
	d.base = offset
	d.line = int32(start.Line)
	d.lineStart = offset - int64(start.Col-1)
	return d
}

// NewDecoderAt returns a Decoder reading r, a piece of a larger input that
// starts at position start and byte offset offset, inside the containers
// open lists (outermost first, each '{' or '['), at the start of a member or
// item of the innermost one: the first NextMember or NextItem reads it
// without a ',' before it. Positions, offsets and depths are reported as in
// the whole input; the size limit counts from the whole input's start.
func NewDecoderAt(r io.Reader, lim Limits, start Pos, offset int64, open string) *Decoder {
	d := &Decoder{r: r, buf: make([]byte, 0, defaultBufSize), lim: lim.bounded()}
	d.Resume(r, start, offset)
	for i := range len(open) {
		d.open = append(d.open, open[i])
		d.first = append(d.first, i == len(open)-1)
	}
	return d
}

// Resume drops what d has buffered and reads on from r, which continues the
// input at position at and byte offset offset (a reader positioned there);
// the containers d is inside stay open. A reader that read the middle of an
// input elsewhere (in pieces, on other goroutines) resumes after it.
func (d *Decoder) Resume(r io.Reader, at Pos, offset int64) {
	d.r, d.buf, d.pos, d.base, d.eof = r, d.buf[:0], 0, offset, false
	d.line, d.lineStart, d.nread = int32(at.Line), offset-int64(at.Col-1), offset
}

// Pos returns the position of the next unread byte.
func (d *Decoder) Pos() Pos { return d.posAt(d.pos) }

// Finish checks that nothing but whitespace follows.
func (d *Decoder) Finish() error {
	if d.err != nil {
		return d.err
	}
	if len(d.open) > 0 {
		panic("jsonpos.Decoder.Finish: containers are still open; read them to the end with NextMember/NextItem first")
	}
	if c, ok := d.skipWS(); ok {
		return d.fail(d.pos, "unexpected %s after the end of the JSON value", describe(c))
	}
	return d.err
}

func (d *Decoder) parseValue(depth int) (Value, error) {
	var v Value
	c, ok := d.skipWS()
	if !ok {
		return v, d.failEOF("a value")
	}
	p := d.posAt(d.pos)
	v.line, v.col = clamp32(p.Line), clamp32(p.Col)
	var err error
	switch c {
	case '{':
		v.kind = Object
		var kids []Value
		kids, err = d.parseContainer(depth+1, '}')
		v.setKids(kids)
	case '[':
		v.kind = Array
		var kids []Value
		kids, err = d.parseContainer(depth+1, ']')
		v.setKids(kids)
	case '"':
		v.kind = String
		var text []byte
		text, err = d.scanString()
		v.setText(text)
	case 't':
		v.kind, v.boolean = Bool, true
		err = d.literal("true")
	case 'f':
		v.kind = Bool
		err = d.literal("false")
	case 'n':
		v.kind = Null
		err = d.literal("null")
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			v.kind = Number
			var text []byte
			text, err = d.scanNumber()
			v.setText(text)
		} else {
			err = d.fail(d.pos, "unexpected %s, expected a value", describe(c))
		}
	}
	return v, err
}

func (d *Decoder) literal(word string) error {
	d.ensure(len(word))
	buf := d.buf[d.pos:]
	for i := range len(word) {
		if i >= len(buf) {
			return d.failEOF("'" + word + "'")
		}
		if buf[i] != word[i] {
			return d.fail(d.pos+i, "invalid literal, expected '%s'", word)
		}
	}
	d.pos += len(word)
	return d.delimiter("'" + word + "'")
}

// delimiter checks that a scalar is followed by something that may follow
// a value (so "truex" and "1x" are rejected at the right column).
func (d *Decoder) delimiter(what string) error {
	if d.pos >= len(d.buf) {
		d.ensure(1)
		if d.pos >= len(d.buf) {
			return d.err
		}
	}
	switch d.buf[d.pos] {
	case ' ', '\t', '\r', '\n', ',', ']', '}', ':':
		return nil
	}
	return d.fail(d.pos, "unexpected %s after %s", describe(d.buf[d.pos]), what)
}

// parseContainer parses the members or items of the object or array whose
// opening bracket is at d.pos, up to the closing end, and returns them.
func (d *Decoder) parseContainer(depth int, end byte) ([]Value, error) {
	if d.lim.MaxDepth > 0 && depth > d.lim.MaxDepth {
		return nil, d.failLimit(d.pos, "nesting is deeper than the limit of %d levels", d.lim.MaxDepth)
	}
	d.pos++ // '{' or '['
	mark := len(d.stack)
	c, ok := d.skipWS()
	if !ok {
		return nil, d.failEOF(closeWhat(end))
	}
	if c == end {
		d.pos++
		return d.vals[len(d.vals):len(d.vals)], nil // non-nil, empty
	}
	for {
		var key []byte
		var keyPos Pos
		if end == '}' {
			var err error
			if key, keyPos, err = d.parseKey(); err != nil {
				return nil, err
			}
		}
		kid, err := d.parseValue(depth)
		if err != nil {
			return nil, err
		}
		if d.lim.MaxValues > 0 && len(d.vals)+len(d.stack) >= d.lim.MaxValues {
			d.err = &SyntaxError{Pos: kid.Pos(), Offset: d.Offset(), Limit: true,
				Msg: fmt.Sprintf("more than the limit of %d values in one %s", d.lim.MaxValues, d.unit())}
			return nil, d.err
		}
		kid.setKey(key)
		kid.keyLine, kid.keyCol = clamp32(keyPos.Line), clamp32(keyPos.Col)
		d.stack = append(d.stack, kid)
		c, ok = d.skipWS()
		if !ok {
			return nil, d.failEOF(closeWhat(end))
		}
		if c == end {
			d.pos++
			break
		}
		if c != ',' {
			return nil, d.fail(d.pos, "unexpected %s, expected %s", describe(c), closeWhat(end))
		}
		d.pos++
	}
	n := len(d.stack) - mark
	d.vals = append(d.vals, d.stack[mark:]...)
	kids := d.vals[len(d.vals)-n : len(d.vals) : len(d.vals)]
	clear(d.stack[mark:])
	d.stack = d.stack[:mark]
	return kids, nil
}

func closeWhat(end byte) string {
	if end == '}' {
		return "',' or '}'"
	}
	return "',' or ']'"
}

// parseKey reads `"key" :`.
func (d *Decoder) parseKey() ([]byte, Pos, error) {
	c, ok := d.skipWS()
	if !ok {
		return nil, Pos{}, d.failEOF("a string key")
	}
	if c != '"' {
		return nil, Pos{}, d.fail(d.pos, "unexpected %s, expected a string key", describe(c))
	}
	p := d.posAt(d.pos)
	k, err := d.scanString()
	if err != nil {
		return nil, p, err
	}
	c, ok = d.skipWS()
	if !ok {
		return nil, p, d.failEOF("':'")
	}
	if c != ':' {
		return nil, p, d.fail(d.pos, "unexpected %s, expected ':' after the key", describe(c))
	}
	d.pos++
	return k, p, nil
}

// --- scalars ---

// scanString reads a string starting at the opening quote at d.pos and
// returns its unescaped contents, stored in the byte arena.
func (d *Decoder) scanString() ([]byte, error) {
	quote := d.pos
	qpos, qoff := d.posAt(quote), d.base+int64(quote)
	start := len(d.bytes)
	d.pos++
	i := d.pos
	for {
		buf := d.buf
		for i < len(buf) {
			c := buf[i]
			if c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
				break
			}
			i++
		}
		if i < len(buf) {
			switch c := buf[i]; {
			case c == '"':
				d.bytes = append(d.bytes, buf[d.pos:i]...)
				d.pos = i + 1
				if err := d.checkStringLen(start, qpos, qoff); err != nil {
					return nil, err
				}
				return d.bytes[start:len(d.bytes):len(d.bytes)], nil
			case c == '\\':
				d.bytes = append(d.bytes, buf[d.pos:i]...)
				d.pos = i
				if err := d.escape(); err != nil {
					return nil, err
				}
				i = d.pos
				continue
			case c < 0x20:
				return nil, d.fail(i, "%s in string (escape it)", describe(c))
			default:
				if !utf8.FullRune(buf[i:]) && !d.eof {
					break // read more below
				}
				r, size := utf8.DecodeRune(buf[i:])
				if r == utf8.RuneError && size <= 1 {
					return nil, d.fail(i, "invalid UTF-8 (byte 0x%02X) in string", c)
				}
				i += size
				continue
			}
		}
		d.bytes = append(d.bytes, buf[d.pos:i]...)
		d.pos = i
		if err := d.checkStringLen(start, qpos, qoff); err != nil {
			return nil, err
		}
		if _, ok := d.more(); !ok {
			if d.err != nil {
				return nil, d.err
			}
			if d.pos < len(d.buf) { // an incomplete UTF-8 sequence at the very end
				return nil, d.fail(d.pos, "invalid UTF-8 (byte 0x%02X) in string", d.buf[d.pos])
			}
			d.err = &SyntaxError{Pos: qpos, Offset: qoff, Msg: "unterminated string (reached the end of input)"}
			return nil, d.err
		}
		i = d.pos
	}
}

func (d *Decoder) checkStringLen(start int, qpos Pos, qoff int64) error {
	if d.lim.MaxString > 0 && len(d.bytes)-start > d.lim.MaxString {
		if d.err == nil {
			d.err = &SyntaxError{Pos: qpos, Offset: qoff, Limit: true,
				Msg: fmt.Sprintf("string is longer than the limit of %s", words.Bytes(int64(d.lim.MaxString)))}
		}
		return d.err
	}
	return d.checkArena(qpos, qoff)
}

func (d *Decoder) unit() string {
	if d.lim.Unit == "" {
		return "piece of JSON"
	}
	return d.lim.Unit
}

// checkArena fails at the value starting at p (offset off) if the arena
// holds more than MaxArenaBytes.
func (d *Decoder) checkArena(p Pos, off int64) error {
	if d.lim.MaxArenaBytes > 0 && len(d.bytes) > d.lim.MaxArenaBytes {
		if d.err == nil {
			d.err = &SyntaxError{Pos: p, Offset: off, Limit: true,
				Msg: fmt.Sprintf("more than the limit of %s of strings and numbers in one %s", words.Bytes(int64(d.lim.MaxArenaBytes)), d.unit())}
		}
		return d.err
	}
	return nil
}

// escape decodes the escape sequence at d.pos (a backslash) into the arena.
func (d *Decoder) escape() error {
	d.ensure(12) // \uXXXX\uXXXX
	buf := d.buf[d.pos:]
	if len(buf) < 2 {
		return d.failEOF("an escape sequence")
	}
	switch buf[1] {
	case '"', '\\', '/':
		d.bytes = append(d.bytes, buf[1])
	case 'b':
		d.bytes = append(d.bytes, '\b')
	case 'f':
		d.bytes = append(d.bytes, '\f')
	case 'n':
		d.bytes = append(d.bytes, '\n')
	case 'r':
		d.bytes = append(d.bytes, '\r')
	case 't':
		d.bytes = append(d.bytes, '\t')
	case 'u':
		r, ok := hex4(buf[2:])
		if !ok {
			return d.fail(d.pos, "invalid \\u escape (needs four hex digits)")
		}
		n := 6
		switch {
		case r >= 0xDC00 && r <= 0xDFFF:
			return d.fail(d.pos, "invalid \\u escape: lone low surrogate U+%04X", r)
		case r >= 0xD800 && r <= 0xDBFF:
			if len(buf) < 12 || buf[6] != '\\' || buf[7] != 'u' {
				return d.fail(d.pos, "invalid \\u escape: high surrogate U+%04X without a low surrogate", r)
			}
			r2, ok := hex4(buf[8:])
			if !ok {
				return d.fail(d.pos+6, "invalid \\u escape (needs four hex digits)")
			}
			if r2 < 0xDC00 || r2 > 0xDFFF {
				return d.fail(d.pos, "invalid \\u escape: high surrogate U+%04X without a low surrogate", r)
			}
			r = 0x10000 + (r-0xD800)<<10 + (r2 - 0xDC00)
			n = 12
		}
		d.bytes = utf8.AppendRune(d.bytes, r)
		d.pos += n
		return nil
	default:
		return d.fail(d.pos, "invalid escape sequence \\%s", escapeChar(buf[1]))
	}
	d.pos += 2
	return nil
}

func escapeChar(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return string(rune(c))
	}
	return fmt.Sprintf("(byte 0x%02X)", c)
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// scanNumber reads a number starting at d.pos, checks the JSON grammar and
// returns its literal, stored in the byte arena.
func (d *Decoder) scanNumber() ([]byte, error) {
	i := d.pos
	// at returns the byte at i, reading more input if needed; 0 at the end.
	at := func() byte {
		if i >= len(d.buf) {
			shift, ok := d.more()
			i -= shift
			if !ok || i >= len(d.buf) {
				return 0
			}
		}
		return d.buf[i]
	}
	digits := func() int {
		n := 0
		for c := at(); c >= '0' && c <= '9'; c = at() {
			i++
			n++
			if d.lim.MaxString > 0 && i-d.pos > d.lim.MaxString {
				return -1
			}
		}
		return n
	}
	tooLong := func() ([]byte, error) {
		return nil, d.failLimit(d.pos, "number is longer than the limit of %s", words.Bytes(int64(d.lim.MaxString)))
	}
	if at() == '-' {
		i++
	}
	switch c := at(); {
	case c == '0':
		i++
		if c := at(); c >= '0' && c <= '9' {
			return nil, d.fail(i-1, "invalid number: leading zero")
		}
	case c >= '1' && c <= '9':
		if digits() < 0 {
			return tooLong()
		}
	default:
		if c == 0 && d.err != nil {
			return nil, d.err
		}
		return nil, d.fail(i, "invalid number: expected a digit")
	}
	if at() == '.' {
		i++
		switch n := digits(); {
		case n < 0:
			return tooLong()
		case n == 0:
			return nil, d.fail(i, "invalid number: expected a digit after '.'")
		}
	}
	if c := at(); c == 'e' || c == 'E' {
		i++
		if c := at(); c == '+' || c == '-' {
			i++
		}
		switch n := digits(); {
		case n < 0:
			return tooLong()
		case n == 0:
			return nil, d.fail(i, "invalid number: expected a digit in the exponent")
		}
	}
	if d.err != nil {
		return nil, d.err
	}
	start := len(d.bytes)
	d.bytes = append(d.bytes, d.buf[d.pos:i]...)
	if err := d.checkArena(d.posAt(d.pos), d.base+int64(d.pos)); err != nil {
		return nil, err
	}
	d.pos = i
	if err := d.delimiter("a number"); err != nil {
		return nil, err
	}
	return d.bytes[start:len(d.bytes):len(d.bytes)], nil
}

// --- streaming API ---

// Peek returns the kind and position of the next value without consuming
// it. Kind is Invalid (with an error) if the next byte cannot start a value.
func (d *Decoder) Peek() (Kind, Pos, error) {
	if d.err != nil {
		return Invalid, Pos{}, d.err
	}
	c, ok := d.skipWS()
	if !ok {
		return Invalid, Pos{}, d.failEOF("a value")
	}
	p := d.posAt(d.pos)
	switch {
	case c == '{':
		return Object, p, nil
	case c == '[':
		return Array, p, nil
	case c == '"':
		return String, p, nil
	case c == 't' || c == 'f':
		return Bool, p, nil
	case c == 'n':
		return Null, p, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return Number, p, nil
	}
	return Invalid, p, d.fail(d.pos, "unexpected %s, expected a value", describe(c))
}

// EnterObject consumes the '{' of the next value, which must be an object;
// read its members with [Decoder.NextMember].
func (d *Decoder) EnterObject() (Pos, error) { return d.enter('{') }

// EnterArray consumes the '[' of the next value, which must be an array;
// read its items with [Decoder.NextItem].
func (d *Decoder) EnterArray() (Pos, error) { return d.enter('[') }

func (d *Decoder) enter(open byte) (Pos, error) {
	if d.err != nil {
		return Pos{}, d.err
	}
	c, ok := d.skipWS()
	if !ok {
		return Pos{}, d.failEOF(fmt.Sprintf("'%c'", open))
	}
	p := d.posAt(d.pos)
	if c != open {
		return p, d.fail(d.pos, "unexpected %s, expected '%c'", describe(c), open)
	}
	if d.lim.MaxDepth > 0 && len(d.open)+1 > d.lim.MaxDepth {
		return p, d.failLimit(d.pos, "nesting is deeper than the limit of %d levels", d.lim.MaxDepth)
	}
	d.pos++
	d.open = append(d.open, open)
	d.first = append(d.first, true)
	return p, nil
}

// next handles the separator before the next member/item of the innermost
// open container; it reports false after consuming the closing bracket.
func (d *Decoder) next(open, end byte) (bool, error) {
	if d.err != nil {
		return false, d.err
	}
	top := len(d.open) - 1
	if top < 0 || d.open[top] != open {
		panic(fmt.Sprintf("jsonpos.Decoder: NextMember/NextItem called without a matching EnterObject/EnterArray (want '%c')", open))
	}
	c, ok := d.skipWS()
	if !ok {
		return false, d.failEOF(closeWhat(end))
	}
	if c == end {
		d.pos++
		d.open, d.first = d.open[:top], d.first[:top]
		return false, nil
	}
	if d.first[top] {
		d.first[top] = false
		return true, nil
	}
	if c != ',' {
		return false, d.fail(d.pos, "unexpected %s, expected %s", describe(c), closeWhat(end))
	}
	d.pos++
	return true, nil
}

// NextMember reads the key of the next member of the innermost open object
// and the ':' after it; the caller then reads the member's value (with
// [Decoder.Value], [Decoder.Skip], [Decoder.EnterObject] …). It reports
// ok == false after consuming the closing '}'. The key bytes live in the
// arena.
func (d *Decoder) NextMember() (key []byte, keyPos Pos, ok bool, err error) {
	ok, err = d.next('{', '}')
	if !ok || err != nil {
		return nil, Pos{}, false, err
	}
	key, keyPos, err = d.parseKey()
	if err != nil {
		return nil, Pos{}, false, err
	}
	return key, keyPos, true, nil
}

// NextItem prepares to read the next item of the innermost open array. It
// reports false after consuming the closing ']'.
func (d *Decoder) NextItem() (bool, error) { return d.next('[', ']') }
