package ecs

import (
	"fmt"
	"reflect"
)

// SetFieldOf sets one field of the component value ptr points to (a *T, outside any world; see
// World.GetField for paths), converting v as World.SetField does. It is for code that builds a
// component value before it is stored (a scene loader resolving entity references, for one).
func SetFieldOf(ptr any, path string, v any) error {
	rv := reflect.ValueOf(ptr)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("ecs: SetFieldOf needs a non-nil pointer to a component value, got %T", ptr)
	}
	dst, err := fieldValue(rv.Elem(), path)
	if err != nil {
		return fmt.Errorf("ecs: set %v.%s: %w", rv.Elem().Type(), path, err)
	}
	val, err := convertTo(v, dst.Type())
	if err != nil {
		return fmt.Errorf("ecs: set %v.%s: %w", rv.Elem().Type(), path, err)
	}
	dst.Set(val)
	return nil
}

// FieldOf returns a copy of one field of the component value v (a T or *T, outside any world; see
// World.GetField for paths).
func FieldOf(v any, path string) (any, error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer {
		rv = rv.Elem()
	}
	if !rv.IsValid() {
		return nil, fmt.Errorf("ecs: FieldOf needs a component value, got %T", v)
	}
	f, err := fieldValue(rv, path)
	if err != nil {
		return nil, fmt.Errorf("ecs: %v.%s: %w", rv.Type(), path, err)
	}
	return f.Interface(), nil
}
