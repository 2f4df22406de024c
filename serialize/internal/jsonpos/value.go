package jsonpos

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"unsafe"
)

// Kind is the JSON type of a [Value].
type Kind uint8

// The JSON kinds. Invalid is the zero Kind: a Value that was never filled in.
const (
	Invalid Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"invalid value", "null", "boolean", "number", "string", "array", "object"}

// String returns the kind as used in messages: "number", "object", ….
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Pos is a 1-based line and byte column in the input. The zero Pos means
// "no position" (a value made by [NewNumber] and friends).
type Pos struct {
	Line, Col int
}

// IsValid reports whether p is a real position.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String formats p as "line:col".
func (p Pos) String() string {
	return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
}

// Value is one parsed JSON value with its position. Containers hold their
// children in order; object members are children that also carry a key.
//
// Values produced by a [Decoder] point into the decoder's arenas and stay
// valid only until [Decoder.ResetArena]; values from [Parse] stay valid for
// ever. The zero Value has kind Invalid.
type Value struct {
	kind    Kind
	boolean bool
	// int32 positions keep the struct small; columns beyond 2^31 saturate.
	line, col       int32
	keyLine, keyCol int32
	// p is the first of n (room: its capacity) bytes of a String's unescaped contents or a Number's literal, or of
	// n Values, an Array's items or an Object's members in input order; keyP the first of keyN bytes of the member
	// key when this value is an object member. Pointers and 32-bit lengths rather than slices keep a value at 48
	// bytes: a scene's load writes millions of them on one core and reads them on the other.
	n, room uint32
	keyN    uint32
	p       unsafe.Pointer
	keyP    unsafe.Pointer
}

// text is the bytes of a String or a Number (nil for other kinds).
func (v *Value) text() []byte {
	if v.kind != String && v.kind != Number {
		return nil
	}
	return sliceOf[byte](v.p, v.n, v.room)
}

// setText makes b the bytes of v, a String or a Number.
func (v *Value) setText(b []byte) { v.p, v.n, v.room = partsOf(b) }

// kids is the items of an Array or the members of an Object (nil for other kinds).
func (v *Value) kids() []Value {
	if v.kind != Array && v.kind != Object {
		return nil
	}
	return sliceOf[Value](v.p, v.n, v.room)
}

// setKids makes k the items or members of v, an Array or an Object.
func (v *Value) setKids(k []Value) { v.p, v.n, v.room = partsOf(k) }

// sliceOf is the slice of n Ts at p with room for room (nil when p is).
func sliceOf[T any](p unsafe.Pointer, n, room uint32) []T {
	if p == nil {
		return nil
	}
	return unsafe.Slice((*T)(p), room)[:n]
}

// partsOf is s as sliceOf takes it (a capacity beyond 32 bits is cut: never more than the length is read).
func partsOf[T any](s []T) (unsafe.Pointer, uint32, uint32) {
	return unsafe.Pointer(unsafe.SliceData(s)), uint32(len(s)), uint32(min(cap(s), math.MaxUint32))
}

// key is the member key of v (nil when v is not an object member).
func (v *Value) key() []byte { return sliceOf[byte](v.keyP, v.keyN, v.keyN) }

// setKey makes k the member key of v.
func (v *Value) setKey(k []byte) { v.keyP, v.keyN, _ = partsOf(k) }

// Kind returns the JSON type of v.
func (v *Value) Kind() Kind { return v.kind }

// Pos returns where v starts in the input.
func (v *Value) Pos() Pos { return Pos{int(v.line), int(v.col)} }

// SetPos sets v's position (used when a migration builds a value that stands
// for something in the file).
func (v *Value) SetPos(p Pos) { v.line, v.col = clamp32(p.Line), clamp32(p.Col) }

// SetKeyPos sets the position of v's key.
func (v *Value) SetKeyPos(p Pos) { v.keyLine, v.keyCol = clamp32(p.Line), clamp32(p.Col) }

// KeyPos returns where v's key starts, if v is an object member; otherwise
// the zero Pos.
func (v *Value) KeyPos() Pos { return Pos{int(v.keyLine), int(v.keyCol)} }

// Key returns v's key if v is an object member.
func (v *Value) Key() string { return string(v.key()) }

// KeyBytes is [Value.Key] without the copy; the bytes must not be modified.
func (v *Value) KeyBytes() []byte { return v.key() }

// Len returns the number of array items or object members (0 for scalars).
func (v *Value) Len() int { return len(v.kids()) }

// Index returns array item or object member i (0-based). It panics if i is
// out of range, like a slice index.
func (v *Value) Index(i int) *Value { return &v.kids()[i] }

// Get returns the first member with the given key, or nil if v is not an
// object or has no such member.
func (v *Value) Get(key string) *Value {
	if v.kind != Object {
		return nil
	}
	kids := v.kids()
	for i := range kids {
		if string(kids[i].key()) == key {
			return &kids[i]
		}
	}
	return nil
}

// KeyIndex finds repeated keys in an object: First(i) is the index of the
// first member with member i's key. Small objects are scanned; big ones get
// a map, so checking every member of an object is never quadratic.
type KeyIndex struct {
	v *Value
	m map[string]int
}

// NewKeyIndex prepares a KeyIndex for object v.
func NewKeyIndex(v *Value) KeyIndex {
	k := KeyIndex{v: v}
	if kids := v.kids(); len(kids) > 16 {
		k.m = make(map[string]int, len(kids))
		for i := len(kids) - 1; i >= 0; i-- {
			k.m[string(kids[i].key())] = i
		}
	}
	return k
}

// First returns the index of the first member whose key is member i's.
func (k KeyIndex) First(i int) int {
	kids := k.v.kids()
	key := kids[i].key()
	if k.m != nil {
		return k.m[string(key)]
	}
	for j := range i {
		if string(kids[j].key()) == string(key) {
			return j
		}
	}
	return i
}

// Bool returns the value of a boolean (false for other kinds).
func (v *Value) Bool() bool { return v.boolean }

// Text returns the unescaped contents of a string or the literal text of a
// number, without copying; the bytes must not be modified.
func (v *Value) Text() []byte { return v.text() }

// Str returns the contents of a string value ("" for other kinds).
func (v *Value) Str() string {
	if v.kind != String {
		return ""
	}
	return string(v.text())
}

// IsStr reports whether v is the string s, without allocating.
func (v *Value) IsStr(s string) bool { return v.kind == String && string(v.text()) == s }

// ErrRange is returned by the number conversions when a value is out of range
// for the requested type.
var ErrRange = errors.New("out of range")

// errNotNumber is returned by the number conversions for non-numbers.
var errNotNumber = errors.New("not a number")

// Float converts a number to float64, rounding to float32 precision first if
// bits is 32 (the literal is parsed at that precision, so the result is the
// float32 nearest the decimal, with no double rounding). A finite literal
// whose magnitude is too large for the type returns [ErrRange].
func (v *Value) Float(bits int) (float64, error) {
	if v.kind != Number {
		return 0, errNotNumber
	}
	return ParseFloat(v.text(), bits)
}

// parseFloat parses a grammar-checked JSON number. Short numbers without
// an exponent (the common case in scene files: 0, 1, 45, -3, 66.75) take a
// fast exact path: at most 7 digits are an integer that float32 and float64
// hold exactly, and so is the power of ten of at most 7 fraction digits, so
// one division rounds correctly, as strconv.ParseFloat does.
func parseFloat(b []byte, bits int) (float64, error) {
	if len(b) <= 9 {
		neg := false
		i := 0
		if b[0] == '-' {
			neg, i = true, 1
		}
		n, digits, frac, dot := 0, 0, 0, false
		for ; i < len(b); i++ {
			c := b[i]
			if c == '.' && !dot {
				dot = true
				continue
			}
			if c < '0' || c > '9' {
				break
			}
			n = n*10 + int(c-'0')
			digits++
			if dot {
				frac++
			}
		}
		if i == len(b) && digits <= 7 {
			var f float64
			if bits == 32 {
				f = float64(float32(n) / pow10f32[frac])
			} else {
				f = float64(n) / pow10f64[frac]
			}
			if neg {
				f = -f
			}
			return f, nil
		}
	}
	// string(b) does not escape here, so the conversion is on the stack.
	return strconv.ParseFloat(string(b), bits)
}

var (
	pow10f32 = [...]float32{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7}
	pow10f64 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7}
)

// Int converts a number to int64. Integral values written with a fraction
// or exponent (2.0, 1e3) are accepted; anything not exactly an integer in
// int64 range returns an error ([ErrRange] for magnitude, another error for
// a fractional value).
func (v *Value) Int() (int64, error) {
	if v.kind != Number {
		return 0, errNotNumber
	}
	if n, err := strconv.ParseInt(string(v.text()), 10, 64); err == nil {
		return n, nil
	} else if errors.Is(err, strconv.ErrRange) {
		return 0, ErrRange
	}
	f, err := strconv.ParseFloat(string(v.text()), 64)
	if err != nil || math.IsInf(f, 0) || f >= 1<<63 || f < -(1<<63) {
		return 0, ErrRange
	}
	if f != math.Trunc(f) {
		return 0, ErrNotInteger
	}
	return int64(f), nil
}

// Uint converts a number to uint64, like [Value.Int] does to int64.
func (v *Value) Uint() (uint64, error) {
	if v.kind != Number {
		return 0, errNotNumber
	}
	if n, err := strconv.ParseUint(string(v.text()), 10, 64); err == nil {
		return n, nil
	}
	if t := v.text(); len(t) > 0 && t[0] == '-' {
		if n, err := v.Int(); err != nil {
			return 0, err
		} else if n < 0 {
			return 0, ErrRange
		}
		return 0, nil // -0
	}
	f, err := strconv.ParseFloat(string(v.text()), 64)
	if err != nil || math.IsInf(f, 0) || f >= 1<<64 {
		return 0, ErrRange
	}
	if f != math.Trunc(f) {
		return 0, ErrNotInteger
	}
	return uint64(f), nil
}

// ErrNotInteger is returned by [Value.Int] for a number with a fractional part.
var ErrNotInteger = errors.New("not an integer")

// Equal reports whether a and b are the same JSON (kinds, keys and order,
// string contents, number literals), ignoring positions.
func Equal(a, b *Value) bool {
	ak, bk := a.kids(), b.kids()
	if a.kind != b.kind || a.boolean != b.boolean || !bytes.Equal(a.text(), b.text()) || len(ak) != len(bk) {
		return false
	}
	for i := range ak {
		if !bytes.Equal(ak[i].key(), bk[i].key()) || !Equal(&ak[i], &bk[i]) {
			return false
		}
	}
	return true
}

// Clone returns a deep copy of v that no longer points into any arena.
func (v *Value) Clone() Value {
	c := *v
	c.setKey(bytes.Clone(v.key()))
	switch kids := v.kids(); {
	case kids != nil:
		ck := make([]Value, len(kids))
		for i := range kids {
			ck[i] = kids[i].Clone()
		}
		c.setKids(ck)
	case v.kind == String || v.kind == Number:
		c.setText(bytes.Clone(v.text()))
	}
	return c
}

// --- construction and mutation (used by migrations) ---

// NewNull returns a null value.
func NewNull() Value { return Value{kind: Null} }

// NewBool returns a boolean value.
func NewBool(b bool) Value { return Value{kind: Bool, boolean: b} }

// NewString returns a string value.
func NewString(s string) Value {
	v := Value{kind: String}
	v.setText([]byte(s))
	return v
}

// NewNumber returns a number value with the shortest literal that
// round-trips f at the given precision (32 or 64 bits). It panics if f is
// not finite: JSON has no literal for NaN or infinities.
func NewNumber(f float64, bits int) Value {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		panic("jsonpos.NewNumber: JSON cannot represent " + strconv.FormatFloat(f, 'g', -1, 64) + "; check the value before building it")
	}
	v := Value{kind: Number}
	v.setText(AppendFloat(nil, f, bits))
	return v
}

// NewArray returns an array of the given items.
func NewArray(items ...Value) Value {
	for i := range items {
		items[i].setKey(nil)
	}
	v := Value{kind: Array}
	v.setKids(items)
	return v
}

// NewObject returns an empty object; add members with [Value.Set].
func NewObject() Value { return Value{kind: Object} }

// Set replaces the first member named key, or appends one. It panics if v
// is not an object.
func (v *Value) Set(key string, x Value) {
	if v.kind != Object {
		panic("jsonpos.Value.Set on a " + v.kind.String() + "; only objects have members")
	}
	if old := v.Get(key); old != nil {
		x.keyP, x.keyN, x.keyLine, x.keyCol = old.keyP, old.keyN, old.keyLine, old.keyCol
		*old = x
		return
	}
	x.setKey([]byte(key))
	if !x.Pos().IsValid() {
		x.line, x.col = v.line, v.col
	}
	x.keyLine, x.keyCol = x.line, x.col
	// kids from an arena have cap == len, so append copies and never
	// overwrites a neighbour.
	v.setKids(append(v.kids(), x))
}

// AppendMember adds a member named key, written at keyPos, after v's other members; unlike
// [Value.Set] it keeps a member of the same name (a reader that reports repeated keys sees both).
// It panics if v is not an object.
func (v *Value) AppendMember(key []byte, keyPos Pos, x Value) {
	if v.kind != Object {
		panic("jsonpos.Value.AppendMember on a " + v.kind.String() + "; only objects have members")
	}
	x.setKey(bytes.Clone(key))
	x.keyLine, x.keyCol = clamp32(keyPos.Line), clamp32(keyPos.Col)
	v.setKids(append(v.kids(), x))
}

// Delete removes every member named key and reports whether there was one.
func (v *Value) Delete(key string) bool {
	if v.kind != Object {
		return false
	}
	kids := v.kids()
	kept := kids[:0:0]
	found := false
	for i := range kids {
		if string(kids[i].key()) == key {
			found = true
			continue
		}
		kept = append(kept, kids[i])
	}
	if found {
		v.setKids(kept)
	}
	return found
}

func clamp32(n int) int32 {
	if n > math.MaxInt32 {
		return math.MaxInt32
	}
	return int32(n)
}
