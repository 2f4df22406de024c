package ecs

import (
	"fmt"
	"reflect"
	"unsafe"
)

// SetFieldEach sets one field (see GetField for paths) of component id of every entity of es to v
// and marks them changed: SetField for many entities, the path resolved and v converted once, each
// entity's field written in place (a field typed with a million entities selected). Every entity
// must be alive and have the component; otherwise it returns an error and changes nothing. A path
// through a slice ("items[2].name") is walked for each entity, and an entity whose slice is too
// short stops the writes there with an error.
func (w *World) SetFieldEach(es []Entity, id ComponentID, path string, v any) error {
	if int(id) >= len(w.comps) {
		return fmt.Errorf("ecs: component ID %d: %w", id, ErrUnknownComponent)
	}
	s := w.comps[id]
	if s.info.Computed {
		return fmt.Errorf("ecs: set %s.%s: %w", s.info.Name, path, ErrComputed)
	}
	if err := w.checkAllHave(es, id, "set "+s.info.Name+"."+path); err != nil {
		return err
	}
	if s.size == 0 {
		return fmt.Errorf("ecs: set %s.%s: %w: tag components have no fields", s.info.Name, path, ErrPath)
	}
	root := reflect.New(s.info.Type)
	dst, err := fieldValue(root.Elem(), path)
	if err != nil { // maybe through a slice, which a zero value has empty: walked per entity
		return w.setFieldEachSlow(es, id, path, v)
	}
	off := dst.UnsafeAddr() - uintptr(root.UnsafePointer())
	val, err := convertTo(v, dst.Type())
	if err != nil {
		return fmt.Errorf("ecs: set %s.%s: %w", s.info.Name, path, err)
	}
	w.beforeWrite()
	ft := dst.Type()
	if !typeHasPointers(ft) {
		// Plain bytes: copied without reflection.
		src := reflect.New(ft)
		src.Elem().Set(val)
		b := unsafe.Slice((*byte)(src.UnsafePointer()), ft.Size())
		for _, e := range es {
			c, row, _ := w.locate(e, id)
			copy(unsafe.Slice((*byte)(unsafe.Add(c.at(row), off)), len(b)), b)
			c.markChanged(row, w.tick)
		}
		return nil
	}
	for _, e := range es {
		c, row, _ := w.locate(e, id)
		reflect.NewAt(ft, unsafe.Add(c.at(row), off)).Elem().Set(val)
		c.markChanged(row, w.tick)
	}
	return nil
}

// setFieldEachSlow is SetFieldEach for a path walked entity by entity.
func (w *World) setFieldEachSlow(es []Entity, id ComponentID, path string, v any) error {
	for _, e := range es {
		if err := w.SetField(e, id, path, v); err != nil {
			return err
		}
	}
	return nil
}

// StoreValues stores value i of vals (private copies) as component vals.Component() of es[i] and
// marks them changed: what CopyValues copied, put back (an undo). Every entity must be alive and
// have the component, and es as long as vals; otherwise it returns an error and changes nothing.
func (w *World) StoreValues(es []Entity, vals Values) error {
	id := vals.id
	if int(id) >= len(w.comps) || w.comps[id].info.Type != vals.t {
		return fmt.Errorf("ecs: store values of component %d: %w (not this world's)", id, ErrUnknownComponent)
	}
	s := w.comps[id]
	if s.info.Computed {
		return fmt.Errorf("ecs: store %s: %w", s.info.Name, ErrComputed)
	}
	if len(es) != vals.n {
		return fmt.Errorf("ecs: store %d values of %s in %d entities", vals.n, s.info.Name, len(es))
	}
	if err := w.checkAllHave(es, id, "store "+s.info.Name); err != nil {
		return err
	}
	w.beforeWrite()
	for i, e := range es {
		c, row, _ := w.locate(e, id)
		vals.put(c.at(row), vals.at(i))
		c.markChanged(row, w.tick)
	}
	return nil
}

// checkAllHave returns an error naming the first entity of es that is dead or lacks component id.
func (w *World) checkAllHave(es []Entity, id ComponentID, op string) error {
	for _, e := range es {
		if !w.Alive(e) {
			return fmt.Errorf("ecs: %s of %v: %w", op, e, ErrDeadEntity)
		}
		if _, _, ok := w.locate(e, id); !ok {
			return fmt.Errorf("ecs: %s of %v: %w", op, e, ErrNoComponent)
		}
	}
	return nil
}
