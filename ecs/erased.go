package ecs

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
)

// Errors returned by the type-erased access methods (wrapped with details; test with errors.Is).
var (
	ErrDeadEntity       = errors.New("entity is not alive")
	ErrNoComponent      = errors.New("entity does not have the component")
	ErrHasComponent     = errors.New("entity already has the component")
	ErrValueType        = errors.New("value has the wrong type")
	ErrUnknownComponent = errors.New("unknown component")
	ErrComputed         = errors.New("component is computed by the world")
	ErrPath             = errors.New("invalid field path")
	ErrNotPlain         = errors.New("component type holds pointers or strings")
)

// locate returns the column and row holding component id of a live entity.
func (w *World) locate(e Entity, id ComponentID) (*column, uint32, bool) {
	s := w.comps[id]
	if s.sparse != nil {
		r := s.sparse.row(e.index)
		if r < 0 {
			return nil, 0, false
		}
		return s.sparse.col, uint32(r), true
	}
	rec := w.records[e.index]
	c := s.cols[rec.table]
	if c == nil {
		return nil, 0, false
	}
	return c, rec.row, true
}

func (w *World) checkErased(e Entity, id ComponentID) error {
	if int(id) >= len(w.comps) {
		return fmt.Errorf("ecs: component ID %d: %w", id, ErrUnknownComponent)
	}
	if !w.Alive(e) {
		return fmt.Errorf("ecs: %v: %w", e, ErrDeadEntity)
	}
	return nil
}

// Has reports whether live entity e has component id (false for dead entities and unknown IDs).
func (w *World) Has(e Entity, id ComponentID) bool {
	if w.checkErased(e, id) != nil {
		return false
	}
	_, _, ok := w.locate(e, id)
	return ok
}

// Get returns a copy of component id of entity e (as the component's Go type T, not *T).
func (w *World) Get(e Entity, id ComponentID) (any, bool) {
	if w.checkErased(e, id) != nil {
		return nil, false
	}
	c, row, ok := w.locate(e, id)
	if !ok {
		return nil, false
	}
	return c.ops.load(c.at(row)), true
}

// Set overwrites component id of entity e with v (T or *T) and marks it changed. The entity must
// have the component.
func (w *World) Set(e Entity, id ComponentID, v any) error {
	if err := w.checkErased(e, id); err != nil {
		return err
	}
	s := w.comps[id]
	if s.info.Computed {
		return fmt.Errorf("ecs: set %s on %v: %w", s.info.Name, e, ErrComputed)
	}
	c, row, ok := w.locate(e, id)
	if !ok {
		return fmt.Errorf("ecs: set %s on %v: %w", s.info.Name, e, ErrNoComponent)
	}
	w.beforeValueWrite(id)
	if c.size == 0 {
		if !typeMatches(v, s.info.Type) {
			return fmt.Errorf("ecs: set %s: %T: %w (want %v)", s.info.Name, v, ErrValueType, s.info.Type)
		}
	} else if !c.ops.store(c.at(row), v) {
		return fmt.Errorf("ecs: set %s: %T: %w (want %v)", s.info.Name, v, ErrValueType, s.info.Type)
	}
	c.markChanged(row, w.tick)
	return nil
}

func typeMatches(v any, t reflect.Type) bool {
	vt := reflect.TypeOf(v)
	return vt == t || (vt != nil && vt.Kind() == reflect.Pointer && vt.Elem() == t && !reflect.ValueOf(v).IsNil())
}

// Add adds component id to entity e with value v (T or *T), or the component's schema default if v
// is nil. The entity must not have the component yet. Adding Transform also adds GlobalTransform.
// It panics while a query iterates (use a command buffer).
func (w *World) Add(e Entity, id ComponentID, v any) error {
	if err := w.checkErased(e, id); err != nil {
		return err
	}
	s := w.comps[id]
	if s.info.Computed {
		return fmt.Errorf("ecs: add %s to %v: %w", s.info.Name, e, ErrComputed)
	}
	if v != nil && !typeMatches(v, s.info.Type) {
		return fmt.Errorf("ecs: add %s: %T: %w (want %v)", s.info.Name, v, ErrValueType, s.info.Type)
	}
	if _, _, ok := w.locate(e, id); ok {
		return fmt.Errorf("ecs: add %s to %v: %w", s.info.Name, e, ErrHasComponent)
	}
	w.checkStructural("add a component")
	c, row := w.addRaw(e, id)
	if c.size != 0 {
		if v == nil {
			c.ops.setDefault(c.at(row))
		} else {
			c.ops.store(c.at(row), v)
		}
	}
	for _, r := range s.requires {
		if _, _, ok := w.locate(e, r); !ok {
			rc, rrow := w.addRaw(e, r)
			if rc.size != 0 {
				rc.ops.setDefault(rc.at(rrow))
			}
		}
	}
	return nil
}

// addRaw adds component id (absent) to live entity e with ticks set and the value left to the caller.
func (w *World) addRaw(e Entity, id ComponentID) (*column, uint32) {
	s := w.comps[id]
	tick := w.tick
	if s.sparse != nil {
		row := s.sparse.insert(e)
		s.sparse.col.setTicks(row, tick, tick, s.sparse.len())
		return s.sparse.col, row
	}
	from := w.tables[w.records[e.index].table]
	tr := w.tableWith(from, id)
	to := tr.to
	row := w.moveEntity(e, tr)
	c := s.cols[to.index]
	c.setTicks(row, tick, tick, to.len())
	return c, row
}

// removeRaw removes component id (present) from live entity e.
func (w *World) removeRaw(e Entity, id ComponentID) {
	s := w.comps[id]
	if s.sparse != nil {
		s.sparse.remove(e.index)
		return
	}
	from := w.tables[w.records[e.index].table]
	w.moveEntity(e, w.tableWithout(from, id))
}

// Remove removes component id from entity e. Removing Transform also removes GlobalTransform. It
// panics while a query iterates (use a command buffer).
func (w *World) Remove(e Entity, id ComponentID) error {
	if err := w.checkErased(e, id); err != nil {
		return err
	}
	s := w.comps[id]
	if s.info.Computed {
		return fmt.Errorf("ecs: remove %s from %v: %w", s.info.Name, e, ErrComputed)
	}
	if _, _, ok := w.locate(e, id); !ok {
		return fmt.Errorf("ecs: remove %s from %v: %w", s.info.Name, e, ErrNoComponent)
	}
	w.checkStructural("remove a component")
	w.removeRaw(e, id)
	for _, r := range s.requires {
		if _, _, ok := w.locate(e, r); ok {
			w.removeRaw(e, r)
		}
	}
	return nil
}

// ComponentsOf returns the IDs of the components of entity e, sorted by ID (nil for a dead entity).
func (w *World) ComponentsOf(e Entity) []ComponentID { return w.AppendComponents(nil, e) }

// AppendComponents appends the component IDs of e (ComponentsOf) to dst and returns it: nothing is
// allocated when dst has room.
func (w *World) AppendComponents(dst []ComponentID, e Entity) []ComponentID {
	if !w.Alive(e) {
		return dst
	}
	t := w.tables[w.records[e.index].table]
	ids := append(dst, t.ids...)
	added := false
	for _, id := range w.sparseIDs {
		if w.comps[id].sparse.has(e.index) {
			ids = append(ids, id)
			added = true
		}
	}
	if added {
		slices.Sort(ids[len(dst):])
	}
	return ids
}

// Ticks returns the tick at which component id was added to entity e and the tick of its last
// change; ok is false if e is dead or lacks the component.
func (w *World) Ticks(e Entity, id ComponentID) (added, changed uint32, ok bool) {
	if w.checkErased(e, id) != nil {
		return 0, 0, false
	}
	c, row, ok := w.locate(e, id)
	if !ok {
		return 0, 0, false
	}
	return c.added[row], c.changedAt(row), true
}

// LastChange returns the highest change tick written to any value of component id: a cheap way to
// ask "did any X change since tick t?" (LastChange(id) > t).
func (w *World) LastChange(id ComponentID) uint32 { return w.store(id).lastChange }
