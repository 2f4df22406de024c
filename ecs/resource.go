package ecs

import (
	"reflect"
)

type resourceEntry struct {
	v any // *T
}

// SetResource stores v as the world's resource of type T (a typed singleton), replacing any
// previous value.
func SetResource[T any](w *World, v T) {
	t := reflect.TypeFor[T]()
	if e, ok := w.resources[t]; ok {
		*e.v.(*T) = v
		return
	}
	p := new(T)
	*p = v
	w.resources[t] = &resourceEntry{v: p}
}

// Resource returns a pointer to the world's resource of type T, or nil if there is none. The
// pointer stays valid until the resource is removed.
func Resource[T any](w *World) *T {
	if e, ok := w.resources[reflect.TypeFor[T]()]; ok {
		return e.v.(*T)
	}
	return nil
}

// HasResource reports whether the world has a resource of type T.
func HasResource[T any](w *World) bool {
	_, ok := w.resources[reflect.TypeFor[T]()]
	return ok
}

// RemoveResource removes the resource of type T and reports whether there was one.
func RemoveResource[T any](w *World) bool {
	t := reflect.TypeFor[T]()
	_, ok := w.resources[t]
	delete(w.resources, t)
	return ok
}
