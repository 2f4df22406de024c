package fields

import (
	"math"
	"reflect"
)

// ClampFloat validates user input for a Float field or float channel: ok is false for NaN and ±Inf
// (the edit must be dropped); otherwise x is clamped to [Min, Max].
func (f *Field) ClampFloat(x float64) (v float64, ok bool) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, false
	}
	return math.Min(math.Max(x, f.Min), f.Max), true
}

// ClampInt clamps x to the range of an Int or Enum field.
func (f *Field) ClampInt(x int64) int64 { return min(max(x, f.IMin), f.IMax) }

// ClampUint clamps x to the range of a Uint field.
func (f *Field) ClampUint(x uint64) uint64 { return min(max(x, f.UMin), f.UMax) }

// FloatValue converts validated input for a Float field (or channel) to a value of the field's
// type, ready for ecs.World.SetField; ok is false for NaN and ±Inf.
func (f *Field) FloatValue(x float64) (v any, ok bool) {
	x, ok = f.ClampFloat(x)
	if !ok {
		return nil, false
	}
	r := reflect.New(f.Type).Elem()
	r.SetFloat(x)
	return r.Interface(), true
}

// IntValue converts input for an Int or Enum field to a clamped value of the field's type.
func (f *Field) IntValue(x int64) any {
	x = f.ClampInt(x)
	r := reflect.New(f.Type).Elem()
	if r.CanUint() { // an enum over an unsigned type
		r.SetUint(uint64(max(x, 0)))
	} else {
		r.SetInt(x)
	}
	return r.Interface()
}

// UintValue converts input for a Uint field to a clamped value of the field's type.
func (f *Field) UintValue(x uint64) any {
	r := reflect.New(f.Type).Elem()
	r.SetUint(f.ClampUint(x))
	return r.Interface()
}

// BoolValue converts a checkbox state to a value of the field's type.
func (f *Field) BoolValue(b bool) any {
	r := reflect.New(f.Type).Elem()
	r.SetBool(b)
	return r.Interface()
}

// StringValue converts text input to a value of the field's type.
func (f *Field) StringValue(s string) any {
	r := reflect.New(f.Type).Elem()
	r.SetString(s)
	return r.Interface()
}

// Number reads a numeric value as float64.
func Number(v reflect.Value) float64 {
	switch {
	case v.CanFloat():
		return v.Float()
	case v.CanInt():
		return float64(v.Int())
	case v.CanUint():
		return float64(v.Uint())
	}
	return 0
}

// Integer reads an integer value as int64 (unsigned values above MaxInt64 saturate).
func Integer(v reflect.Value) int64 {
	if v.CanUint() {
		return int64(min(v.Uint(), math.MaxInt64))
	}
	return v.Int()
}

// RGBA reads a Color field's channels normalised to [0,1] floats (uint8 channels are divided by
// 255; the alpha of an RGB colour is 1).
func (f *Field) RGBA(v reflect.Value) [4]float32 {
	c := [4]float32{0, 0, 0, 1}
	for i := range min(f.Len, 4) {
		x := Number(v.Index(i))
		if f.Elem.Kind == Uint {
			x /= 255
		}
		c[i] = float32(x)
	}
	return c
}

// ColorValue converts channels in [0,1] (from a colour widget) to a value of a Color field's type:
// channels are validated and clamped like FloatValue (uint8 channels scaled to [0,255] and
// rounded). ok is false if a channel is NaN or ±Inf.
func (f *Field) ColorValue(c [4]float32) (v any, ok bool) {
	r := reflect.New(f.Type).Elem()
	e := f.Elem
	for i := range min(f.Len, 4) {
		x := float64(c[i])
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, false
		}
		if e.Kind == Uint {
			r.Index(i).SetUint(e.ClampUint(uint64(math.Round(math.Min(math.Max(x, 0), 1) * 255))))
			continue
		}
		x, _ = e.ClampFloat(x)
		r.Index(i).SetFloat(x)
	}
	return r.Interface(), true
}

// Sanitize makes a whole component value valid for c, as a paste must be before it reaches the
// world: floats that are NaN or ±Inf become the nearest valid value to 0, numbers are clamped to
// their fields' ranges, enums that hold none of their values take the first. v must be addressable (reflect.ValueOf(&x).Elem()). It reports whether
// anything changed.
func (c *Component) Sanitize(v reflect.Value) bool {
	changed := false
	for i := range c.Fields {
		f := &c.Fields[i]
		if sanitize(f, v.Field(f.Index)) {
			changed = true
		}
	}
	return changed
}

// Sanitize makes value v of field f valid as Component.Sanitize does (v must be settable) and
// reports whether it changed anything.
func (f *Field) Sanitize(v reflect.Value) bool { return sanitize(f, v) }

// NewItem returns a new item for the Array or Slice field f (what its + button appends): the item
// type's default (ecs Field.Default: a declared struct's defaults), else the zero value (colours:
// opaque white), made valid for the item's hints (a zero below a minimum becomes the minimum, an
// enum's 0 that is not one of its values its first value).
func (f *Field) NewItem() reflect.Value {
	v := reflect.New(f.Elem.Type).Elem()
	switch {
	case f.Elem.Default != nil:
		v.Set(Clone(reflect.ValueOf(f.Elem.Default)))
	case f.Elem.Kind == Color: // opaque white, as a new colour field starts (not an invisible transparent black)
		ch := f.Elem.Elem
		for i := range v.Len() {
			if ch.Scalar == reflect.Float32 || ch.Scalar == reflect.Float64 {
				v.Index(i).SetFloat(ch.Max)
			} else {
				v.Index(i).SetUint(ch.UMax)
			}
		}
	}
	f.Elem.Sanitize(v)
	return v
}

func sanitize(f *Field, v reflect.Value) bool {
	if !v.CanSet() {
		return false
	}
	switch f.Kind {
	case Float:
		x := v.Float()
		y, ok := f.ClampFloat(x)
		if !ok {
			y, _ = f.ClampFloat(0)
		}
		if y != x || math.IsNaN(x) {
			v.SetFloat(y)
			return true
		}
	case Int:
		if x := v.Int(); f.ClampInt(x) != x {
			v.SetInt(f.ClampInt(x))
			return true
		}
	case Enum:
		if len(f.Enum) == 0 {
			return false
		}
		var x int64
		if v.CanInt() {
			x = v.Int()
		} else {
			x = int64(v.Uint())
		}
		for _, ev := range f.Enum {
			if ev.Value == x {
				return false
			}
		}
		if v.CanInt() {
			v.SetInt(f.Enum[0].Value)
		} else {
			v.SetUint(uint64(f.Enum[0].Value))
		}
		return true
	case Uint:
		if x := v.Uint(); f.ClampUint(x) != x {
			v.SetUint(f.ClampUint(x))
			return true
		}
	case Struct:
		changed := false
		for i := range f.Fields {
			if sanitize(&f.Fields[i], v.Field(f.Fields[i].Index)) {
				changed = true
			}
		}
		return changed
	case Array, Slice, Vector, Euler, Color, Matrix:
		changed := false
		for i := range v.Len() {
			if sanitize(f.Elem, v.Index(i)) {
				changed = true
			}
		}
		return changed
	}
	return false
}
