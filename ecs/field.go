package ecs

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
)

type pathSeg struct {
	name  string // field JSON name, or "" for an index
	index int
}

// parsePath splits "a.b[2].c" into segments.
func parsePath(path string) ([]pathSeg, error) {
	var segs []pathSeg
	i := 0
	expectName := true
	for i < len(path) {
		switch {
		case path[i] == '[':
			j := i + 1
			for j < len(path) && path[j] != ']' {
				j++
			}
			if j == len(path) {
				return nil, fmt.Errorf("%w: %q: missing ']'", ErrPath, path)
			}
			n, err := strconv.Atoi(path[i+1 : j])
			if err != nil || n < 0 {
				return nil, fmt.Errorf("%w: %q: bad index %q", ErrPath, path, path[i+1:j])
			}
			if len(segs) == 0 {
				return nil, fmt.Errorf("%w: %q: path starts with an index", ErrPath, path)
			}
			segs = append(segs, pathSeg{index: n})
			i = j + 1
			expectName = false
		case path[i] == '.':
			if expectName {
				return nil, fmt.Errorf("%w: %q: empty field name", ErrPath, path)
			}
			i++
			expectName = true
		default:
			if !expectName {
				return nil, fmt.Errorf("%w: %q: missing '.' before a field name", ErrPath, path)
			}
			j := i
			for j < len(path) && path[j] != '.' && path[j] != '[' {
				j++
			}
			segs = append(segs, pathSeg{name: path[i:j]})
			i = j
			expectName = false
		}
	}
	if expectName {
		return nil, fmt.Errorf("%w: %q: empty field name", ErrPath, path)
	}
	return segs, nil
}

// fieldValue walks path from the root value v (addressable) and returns the addressed value.
func fieldValue(v reflect.Value, path string) (reflect.Value, error) {
	segs, err := parsePath(path)
	if err != nil {
		return reflect.Value{}, err
	}
	for _, sg := range segs {
		if sg.name != "" {
			if v.Kind() != reflect.Struct || v.Type() == entityType {
				return reflect.Value{}, fmt.Errorf("%w: %q: %q is not a field of a %v", ErrPath, path, sg.name, v.Type())
			}
			f, ok := structFieldByJSON(v.Type(), sg.name)
			if !ok {
				return reflect.Value{}, fmt.Errorf("%w: %q: %v has no field %q", ErrPath, path, v.Type(), sg.name)
			}
			v = v.Field(f)
			continue
		}
		if v.Kind() != reflect.Array && v.Kind() != reflect.Slice {
			return reflect.Value{}, fmt.Errorf("%w: %q: cannot index a %v", ErrPath, path, v.Type())
		}
		if sg.index >= v.Len() {
			return reflect.Value{}, fmt.Errorf("%w: %q: index %d out of range [0,%d)", ErrPath, path, sg.index, v.Len())
		}
		v = v.Index(sg.index)
	}
	return v, nil
}

func structFieldByJSON(t reflect.Type, name string) (int, bool) {
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		if n, skip := jsonFieldName(sf); !skip && n == name {
			return i, true
		}
	}
	return 0, false
}

// GetField returns a copy of one field of component id of entity e. The path uses JSON names and
// indexes: "position", "position[0]", "a.b", "items[2].name".
func (w *World) GetField(e Entity, id ComponentID, path string) (any, error) {
	if err := w.checkErased(e, id); err != nil {
		return nil, err
	}
	s := w.comps[id]
	c, row, ok := w.locate(e, id)
	if !ok {
		return nil, fmt.Errorf("ecs: get %s.%s of %v: %w", s.info.Name, path, e, ErrNoComponent)
	}
	root := reflect.New(s.info.Type).Elem()
	if c.size != 0 {
		root = s.valueAt(c.at(row))
	}
	v, err := fieldValue(root, path)
	if err != nil {
		return nil, fmt.Errorf("ecs: get %s.%s: %w", s.info.Name, path, err)
	}
	return v.Interface(), nil
}

// SetField sets one field of component id of entity e (see GetField for paths) and marks the
// component changed. Numbers are converted to the field's numeric type when the value fits (an
// integer field rejects 1.5; an int8 field rejects 300).
func (w *World) SetField(e Entity, id ComponentID, path string, v any) error {
	if err := w.checkErased(e, id); err != nil {
		return err
	}
	s := w.comps[id]
	if s.info.Computed {
		return fmt.Errorf("ecs: set %s.%s of %v: %w", s.info.Name, path, e, ErrComputed)
	}
	c, row, ok := w.locate(e, id)
	if !ok {
		return fmt.Errorf("ecs: set %s.%s of %v: %w", s.info.Name, path, e, ErrNoComponent)
	}
	if c.size == 0 {
		return fmt.Errorf("ecs: set %s.%s: %w: tag components have no fields", s.info.Name, path, ErrPath)
	}
	w.beforeValueWrite(id)
	root := s.valueAt(c.at(row))
	dst, err := fieldValue(root, path)
	if err != nil {
		return fmt.Errorf("ecs: set %s.%s: %w", s.info.Name, path, err)
	}
	val, err := convertTo(v, dst.Type())
	if err != nil {
		return fmt.Errorf("ecs: set %s.%s: %w", s.info.Name, path, err)
	}
	dst.Set(val)
	c.markChanged(row, w.tick)
	return nil
}

// convertTo converts v to type t: assignable values as they are, numbers between numeric kinds when
// the value is representable, strings to string kinds.
func convertTo(v any, t reflect.Type) (reflect.Value, error) {
	if v == nil {
		switch t.Kind() {
		case reflect.Slice, reflect.Map, reflect.Pointer, reflect.Interface:
			return reflect.Zero(t), nil
		}
		return reflect.Value{}, fmt.Errorf("%w: nil for a %v", ErrValueType, t)
	}
	rv := reflect.ValueOf(v)
	if rv.Type().AssignableTo(t) {
		return rv, nil
	}
	bad := fmt.Errorf("%w: %T for a %v", ErrValueType, v, t)
	switch {
	case isNumber(rv.Kind()) && isNumber(t.Kind()):
		f, isFloat := asFloat(rv)
		switch t.Kind() {
		case reflect.Float32, reflect.Float64:
			out := reflect.New(t).Elem()
			out.SetFloat(f)
			return out, nil
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			out := reflect.New(t).Elem()
			var i int64
			switch {
			case isFloat:
				if f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 {
					return reflect.Value{}, fmt.Errorf("%w: %v is not an integer of %v", ErrValueType, v, t)
				}
				i = int64(f)
			case rv.CanUint():
				if rv.Uint() > math.MaxInt64 {
					return reflect.Value{}, fmt.Errorf("%w: %v overflows %v", ErrValueType, v, t)
				}
				i = int64(rv.Uint())
			default:
				i = rv.Int()
			}
			if out.OverflowInt(i) {
				return reflect.Value{}, fmt.Errorf("%w: %v overflows %v", ErrValueType, v, t)
			}
			out.SetInt(i)
			return out, nil
		default: // unsigned
			out := reflect.New(t).Elem()
			var u uint64
			switch {
			case isFloat:
				if f != math.Trunc(f) || f < 0 || f >= math.MaxUint64 {
					return reflect.Value{}, fmt.Errorf("%w: %v is not an unsigned integer of %v", ErrValueType, v, t)
				}
				u = uint64(f)
			case rv.CanInt():
				if rv.Int() < 0 {
					return reflect.Value{}, fmt.Errorf("%w: %v is negative for %v", ErrValueType, v, t)
				}
				u = uint64(rv.Int())
			default:
				u = rv.Uint()
			}
			if out.OverflowUint(u) {
				return reflect.Value{}, fmt.Errorf("%w: %v overflows %v", ErrValueType, v, t)
			}
			out.SetUint(u)
			return out, nil
		}
	case rv.Kind() == reflect.String && t.Kind() == reflect.String,
		rv.Kind() == reflect.Bool && t.Kind() == reflect.Bool:
		return rv.Convert(t), nil
	case rv.Kind() == t.Kind() && rv.Type().ConvertibleTo(t) && (t.Kind() == reflect.Array || t.Kind() == reflect.Slice):
		return rv.Convert(t), nil
	}
	return reflect.Value{}, bad
}

func isNumber(k reflect.Kind) bool {
	return isInteger(k) || k == reflect.Float32 || k == reflect.Float64
}

func asFloat(v reflect.Value) (float64, bool) {
	switch {
	case v.CanFloat():
		return v.Float(), true
	case v.CanInt():
		return float64(v.Int()), false
	default:
		return float64(v.Uint()), false
	}
}
