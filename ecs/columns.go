package ecs

import "reflect"

// EachColumn calls fn once for every table holding component id (once for its sparse set), with the
// table's entities and their values as a slice of the component's type (values[i] is ents[i]'s),
// until fn returns false; tables without rows are skipped. The values are the world's own storage,
// for reading a field of many entities at the speed of a loop over a slice (a search over a whole
// scene): fn must not write them (writes would not be marked changed) nor change the world
// structurally. Tag components (no fields) give empty value slices of their length.
func (w *World) EachColumn(id ComponentID, fn func(ents []Entity, values reflect.Value) bool) {
	s := w.store(id)
	w.locks++
	defer func() { w.locks-- }()
	slice := func(c *column, n int) reflect.Value {
		if s.size == 0 {
			return reflect.MakeSlice(reflect.SliceOf(s.info.Type), n, n)
		}
		return reflect.SliceAt(s.info.Type, c.ptr, n)
	}
	if s.sparse != nil {
		if n := s.sparse.len(); n > 0 {
			fn(s.sparse.dense[:n:n], slice(s.sparse.col, n))
		}
		return
	}
	for ti, c := range s.cols {
		if c == nil {
			continue
		}
		t := w.tables[ti]
		n := t.len()
		if n == 0 {
			continue
		}
		if !fn(t.entities[:n:n], slice(c, n)) {
			return
		}
	}
}
