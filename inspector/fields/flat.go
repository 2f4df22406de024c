package fields

import (
	"math"
	"reflect"
	"unsafe"
)

// leaf locates one leaf node of a component type without pointers: its byte offset in the value,
// its size, whether it is a float (compared by value, NaN equal to NaN) and its ordinal.
type leaf struct {
	off   uintptr
	size  uintptr
	float uint8 // 0, 4 or 8
	ord   int
}

// flatLeaves lists the leaves of a static, pointer-free component in ordinal order, so that values
// can be compared by reading memory instead of walking reflect values (Selection compares many).
func flatLeaves(c *Component) []leaf {
	if c.Deep || c.nodes < 0 {
		return nil
	}
	var out []leaf
	o := 1
	for i := range c.Fields {
		f := &c.Fields[i]
		out = appendLeaves(out, f, c.Type.Field(f.Index).Offset, &o)
	}
	return out
}

func appendLeaves(out []leaf, f *Field, off uintptr, o *int) []leaf {
	switch f.Kind {
	case Struct:
		*o++
		for i := range f.Fields {
			cf := &f.Fields[i]
			out = appendLeaves(out, cf, off+f.Type.Field(cf.Index).Offset, o)
		}
		return out
	case Array, Vector, Euler, Color, Matrix:
		*o++
		size := f.Type.Elem().Size()
		for i := range f.Len {
			out = appendLeaves(out, f.Elem, off+uintptr(i)*size, o)
		}
		return out
	}
	l := leaf{off: off, size: f.Type.Size(), ord: *o}
	switch f.Type.Kind() {
	case reflect.Float32:
		l.float = 4
	case reflect.Float64:
		l.float = 8
	}
	*o++
	return append(out, l)
}

// dataPointer returns the address of the memory holding v: v's own address when addressable,
// otherwise the data word of the interface that v.Interface returns, which for a value that is
// not addressable is v's memory itself (no copy is made).
func dataPointer(v reflect.Value) unsafe.Pointer {
	if v.CanAddr() {
		return unsafe.Pointer(v.UnsafeAddr())
	}
	x := v.Interface()
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&x))[1]
}

// diffFlat is Diff for components with a flat leaf list.
func diffFlat(leaves []leaf, a, b reflect.Value, out *Bits) bool {
	pa, pb := dataPointer(a), dataPointer(b)
	found := false
	for i := range leaves {
		l := &leaves[i]
		x, y := unsafe.Add(pa, l.off), unsafe.Add(pb, l.off)
		if memEqual(x, y, l.size) {
			continue
		}
		switch l.float {
		case 4:
			fx, fy := *(*float32)(x), *(*float32)(y)
			if fx == fy || (fx != fx && fy != fy) {
				continue
			}
		case 8:
			fx, fy := *(*float64)(x), *(*float64)(y)
			if fx == fy || (math.IsNaN(fx) && math.IsNaN(fy)) {
				continue
			}
		}
		out.Set(l.ord)
		found = true
	}
	return found
}

func memEqual(x, y unsafe.Pointer, n uintptr) bool {
	switch n {
	case 1:
		return *(*uint8)(x) == *(*uint8)(y)
	case 2:
		return *(*uint16)(x) == *(*uint16)(y)
	case 4:
		return *(*uint32)(x) == *(*uint32)(y)
	}
	return unsafe.String((*byte)(x), n) == unsafe.String((*byte)(y), n)
}
