package ecs

import "reflect"

// PointsTo reports whether values of t hold strings, slices or maps (memory outside the value).
func PointsTo(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Slice, reflect.Map, reflect.Pointer, reflect.Interface:
		return true
	case reflect.Array:
		return PointsTo(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if PointsTo(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// HeldBytes returns the bytes v's strings, slices and maps point to (each counted where it is
// reached; memory shared with other values is counted again).
func HeldBytes(v reflect.Value) int {
	switch v.Kind() {
	case reflect.String:
		return v.Len()
	case reflect.Slice:
		n := v.Cap() * int(v.Type().Elem().Size())
		if PointsTo(v.Type().Elem()) {
			for i := range v.Len() {
				n += HeldBytes(v.Index(i))
			}
		}
		return n
	case reflect.Map:
		n := 48 * v.Len()
		it := v.MapRange()
		for it.Next() {
			n += HeldBytes(it.Key()) + HeldBytes(it.Value())
		}
		return n
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return 0
		}
		return int(v.Elem().Type().Size()) + HeldBytes(v.Elem())
	case reflect.Array:
		n := 0
		if PointsTo(v.Type().Elem()) {
			for i := range v.Len() {
				n += HeldBytes(v.Index(i))
			}
		}
		return n
	case reflect.Struct:
		n := 0
		for i := range v.NumField() {
			if PointsTo(v.Type().Field(i).Type) {
				n += HeldBytes(v.Field(i))
			}
		}
		return n
	}
	return 0
}
