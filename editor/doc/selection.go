package doc

import (
	"slices"

	"github.com/voltex-editor/voltex/ecs"
)

// selection is an ordered set of scene ids: the order is the order of selection, the last one is
// the active entity.
type selection struct {
	list    []uint64
	index   map[uint64]int // id -> position in list
	version uint64
}

func (s *selection) ids() []uint64 { return slices.Clone(s.list) }

func (s *selection) has(id uint64) bool {
	_, ok := s.index[id]
	return ok
}

// set replaces the selection (duplicates are dropped, first occurrence kept).
func (s *selection) set(ids []uint64) {
	if slices.Equal(ids, s.list) {
		return
	}
	s.list = s.list[:0]
	clear(s.index)
	s.add(ids)
	s.version++
}

func (s *selection) add(ids []uint64) {
	if s.index == nil {
		s.index = make(map[uint64]int, len(ids))
	}
	changed := false
	for _, id := range ids {
		if id == 0 {
			continue
		}
		if _, ok := s.index[id]; ok {
			continue
		}
		s.index[id] = len(s.list)
		s.list = append(s.list, id)
		changed = true
	}
	if changed {
		s.version++
	}
}

func (s *selection) remove(ids []uint64) {
	n := 0
	for _, id := range ids {
		if _, ok := s.index[id]; ok {
			delete(s.index, id)
			n++
		}
	}
	if n == 0 {
		return
	}
	s.list = slices.DeleteFunc(s.list, func(id uint64) bool { _, ok := s.index[id]; return !ok })
	for i, id := range s.list {
		s.index[id] = i
	}
	s.version++
}

// Selection returns the selected scene ids in selection order (the last is the active one). The
// slice is a copy.
func (d *Document) Selection() []uint64 { return d.sel.ids() }

// SelectionLen returns the number of selected entities.
func (d *Document) SelectionLen() int { return len(d.sel.list) }

// SelectionVersion changes whenever the selection changes.
func (d *Document) SelectionVersion() uint64 { return d.sel.version }

// SelectedEntities returns the edit world's handles of the selected entities, in selection order
// (the play world has the same handles for them).
func (d *Document) SelectedEntities() []ecs.Entity {
	return d.AppendSelected(nil)
}

// AppendSelected appends the selected entities to dst and returns it (for per-frame use without
// allocation).
func (d *Document) AppendSelected(dst []ecs.Entity) []ecs.Entity {
	for _, id := range d.sel.list {
		if e, ok := d.entity(id); ok {
			dst = append(dst, e)
		}
	}
	return dst
}

// Active returns the active entity: the one selected last (ok false if nothing is selected).
func (d *Document) Active() (ecs.Entity, bool) {
	if n := len(d.sel.list); n > 0 {
		return d.entity(d.sel.list[n-1])
	}
	return ecs.Entity{}, false
}

// IsSelected reports whether e is selected.
func (d *Document) IsSelected(e ecs.Entity) bool {
	if len(d.sel.list) == 0 {
		return false
	}
	return d.sel.has(d.idOf(e))
}

// IsSelectedID reports whether the entity with scene id id is selected.
func (d *Document) IsSelectedID(id uint64) bool { return d.sel.has(id) }

// Select replaces the selection with es (a click). Selecting is not an undoable step, but every
// step restores the selection it was done with on undo and redo.
func (d *Document) Select(es ...ecs.Entity) { d.sel.set(d.liveIDs(es)) }

// SelectIDs replaces the selection with the entities of the given scene ids (unknown ids are
// ignored).
func (d *Document) SelectIDs(ids ...uint64) {
	keep := make([]uint64, 0, len(ids))
	for _, id := range ids {
		if _, ok := d.entity(id); ok {
			keep = append(keep, id)
		}
	}
	d.sel.set(keep)
}

// AddToSelection adds es at the end of the selection (Shift-click); the last becomes active.
// Entities already selected keep their place.
func (d *Document) AddToSelection(es ...ecs.Entity) { d.sel.add(d.liveIDs(es)) }

// Deselect removes es from the selection.
func (d *Document) Deselect(es ...ecs.Entity) { d.sel.remove(d.liveIDs(es)) }

// ToggleSelected selects e if it is not selected and deselects it otherwise (Ctrl-click).
func (d *Document) ToggleSelected(e ecs.Entity) {
	id := d.idOf(e)
	if id == 0 {
		return
	}
	if d.sel.has(id) {
		d.sel.remove([]uint64{id})
	} else {
		d.sel.add([]uint64{id})
	}
}

// ClearSelection deselects everything.
func (d *Document) ClearSelection() { d.sel.set(nil) }

// SelectAll selects every entity, in ascending scene id order.
func (d *Document) SelectAll() { d.sel.set(d.IDs()) }

// liveIDs returns the scene ids of the live entities among es.
func (d *Document) liveIDs(es []ecs.Entity) []uint64 {
	ids := make([]uint64, 0, len(es))
	for _, e := range es {
		if id := d.idOf(e); id != 0 {
			ids = append(ids, id)
		}
	}
	return ids
}

// pruneSelection drops selected ids that name no entity.
func (d *Document) pruneSelection() {
	var gone []uint64
	for _, id := range d.sel.list {
		if _, ok := d.entity(id); !ok {
			gone = append(gone, id)
		}
	}
	d.sel.remove(gone)
}

func sortIDs(ids []uint64) { slices.Sort(ids) }
