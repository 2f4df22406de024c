package fields

import (
	"github.com/voltex-editor/voltex/ecs"
	"math"
	"math/bits"
	"reflect"
	"strconv"
)

// Nodes returns the number of nodes of f's subtree for value v: 1 for a leaf, 1 plus the nodes of
// the children otherwise (channels of a compound kind count as children).
func (f *Field) Nodes(v reflect.Value) int {
	if f.nodes >= 0 {
		return f.nodes
	}
	n := 1
	switch f.Kind {
	case Struct:
		for i := range f.Fields {
			n += f.Fields[i].Nodes(v.Field(f.Fields[i].Index))
		}
	case Array, Slice:
		if f.Elem.nodes >= 0 {
			return n + v.Len()*f.Elem.nodes
		}
		for i := range v.Len() {
			n += f.Elem.Nodes(v.Index(i))
		}
	}
	return n
}

// Nodes returns the number of nodes of a component value: the root (ordinal 0) and its fields.
func (c *Component) Nodes(v reflect.Value) int {
	if c.nodes >= 0 {
		return c.nodes
	}
	n := 1
	for i := range c.Fields {
		n += c.Fields[i].Nodes(v.Field(c.Fields[i].Index))
	}
	return n
}

// Diff marks in out the nodes where b differs from a, numbered by a's shape, and reports whether
// any did. Leaves are marked individually (each channel of a compound field too); when two slices
// differ in length, the slice's whole subtree in a is marked. a and b must be values of c.Type.
func (c *Component) Diff(a, b reflect.Value, out *Bits) bool {
	if c.leaves != nil {
		return diffFlat(c.leaves, a, b, out)
	}
	o := 1
	found := false
	for i := range c.Fields {
		f := &c.Fields[i]
		if diff(f, a.Field(f.Index), b.Field(f.Index), &o, out) {
			found = true
		}
	}
	return found
}

func diff(f *Field, a, b reflect.Value, o *int, out *Bits) bool {
	start := *o
	found := false
	switch f.Kind {
	case Struct:
		*o++
		for i := range f.Fields {
			cf := &f.Fields[i]
			if diff(cf, a.Field(cf.Index), b.Field(cf.Index), o, out) {
				found = true
			}
		}
	case Array, Slice:
		if a.Len() != b.Len() {
			n := f.Nodes(a)
			out.SetRange(start, start+n)
			*o += n
			return true
		}
		*o++
		for i := range a.Len() {
			if diff(f.Elem, a.Index(i), b.Index(i), o, out) {
				found = true
			}
		}
	case Vector, Euler, Color, Matrix:
		*o++
		for i := range f.Len {
			if !Equal(a.Index(i), b.Index(i)) {
				out.Set(*o)
				found = true
			}
			*o++
		}
	default:
		*o++
		if !Equal(a, b) {
			out.Set(start)
			found = true
		}
	}
	return found
}

// Equal reports whether two values of the same type are equal. Floats compare by value, except
// that NaN equals NaN (a NaN must not look like a change on every frame); slices compare element
// by element.
func Equal(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		x, y := a.Float(), b.Float()
		return x == y || (math.IsNaN(x) && math.IsNaN(y))
	case reflect.String:
		return a.String() == b.String()
	case reflect.Struct:
		for i := range a.NumField() {
			if !Equal(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Array, reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !Equal(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Complex64, reflect.Complex128:
		return a.Complex() == b.Complex()
	}
	if a.CanInterface() && b.CanInterface() {
		return reflect.DeepEqual(a.Interface(), b.Interface())
	}
	return a.IsNil() == b.IsNil() && (a.IsNil() || a.Pointer() == b.Pointer())
}

// Copy returns a copy of component value v that shares no memory with it: v itself when the type
// holds no slices, maps or pointers (values returned by ecs.World.Get are already copies), a deep
// copy otherwise.
func (c *Component) Copy(v reflect.Value) reflect.Value {
	if !c.Deep {
		return v
	}
	return ecs.DeepCopy(v)
}

// Bits is a growable bit set indexed by node ordinal. The zero value is empty.
type Bits struct{ w []uint64 }

func (b *Bits) grow(i int) {
	for i>>6 >= len(b.w) {
		b.w = append(b.w, 0)
	}
}

// Set sets bit i.
func (b *Bits) Set(i int) {
	b.grow(i)
	b.w[i>>6] |= 1 << (uint(i) & 63)
}

// SetRange sets bits [lo, hi).
func (b *Bits) SetRange(lo, hi int) {
	for i := lo; i < hi; i++ {
		b.Set(i)
	}
}

// ClearRange clears bits [lo, hi).
func (b *Bits) ClearRange(lo, hi int) {
	for i := lo; i < hi && i>>6 < len(b.w); i++ {
		b.w[i>>6] &^= 1 << (uint(i) & 63)
	}
}

// Has reports whether bit i is set.
func (b *Bits) Has(i int) bool {
	return i >= 0 && i>>6 < len(b.w) && b.w[i>>6]&(1<<(uint(i)&63)) != 0
}

// Any reports whether any bit in [lo, hi) is set.
func (b *Bits) Any(lo, hi int) bool {
	n := b.Next(lo)
	return n >= 0 && n < hi
}

// Next returns the first set bit ≥ i, or -1.
func (b *Bits) Next(i int) int {
	if i < 0 {
		i = 0
	}
	wi := i >> 6
	if wi >= len(b.w) {
		return -1
	}
	if w := b.w[wi] >> (uint(i) & 63); w != 0 {
		return i + bits.TrailingZeros64(w)
	}
	for wi++; wi < len(b.w); wi++ {
		if b.w[wi] != 0 {
			return wi<<6 + bits.TrailingZeros64(b.w[wi])
		}
	}
	return -1
}

// Empty reports whether no bit is set.
func (b *Bits) Empty() bool { return b.Next(0) < 0 }

// Reset clears every bit, keeping the memory.
func (b *Bits) Reset() { clear(b.w) }

// CopyFrom makes b equal to o.
func (b *Bits) CopyFrom(o *Bits) { b.w = append(b.w[:0], o.w...) }

// indexLabels are the labels "[0]".."[255]", built once so element rows cost no allocation.
var indexLabels = func() []string {
	s := make([]string, 256)
	for i := range s {
		s[i] = "[" + strconv.Itoa(i) + "]"
	}
	return s
}()

// IndexLabel returns "[i]", the label of element i.
func IndexLabel(i int) string {
	if i >= 0 && i < len(indexLabels) {
		return indexLabels[i]
	}
	return "[" + strconv.Itoa(i) + "]"
}

func itoa(i int) string { return strconv.Itoa(i) }

// Clone returns a copy of v that shares no memory with it (slices, maps and pointers are
// duplicated).
func Clone(v reflect.Value) reflect.Value { return ecs.DeepCopy(v) }
