package ecs

import (
	"errors"
	"fmt"
)

// Detached is the storage of a table whose entities were all despawned together by DespawnDetach: its columns
// (values and their memory, room included) moved out of the world rather than copied, until SpawnDetached moves
// them back. An editor's undo history holds a delete of a million alike entities this way: the delete copies
// nothing, and its undo copies nothing back.
type Detached struct {
	w        *World
	t        *table
	cols     []column // the table's columns as they were, by t.ids
	entities []Entity // the despawned handles in row order (their slice keeps the table's room)
	cap      int
	used     bool
}

// ErrNotWholeTable is returned by DespawnDetach for a list that is not every entity of one table in its row order.
var ErrNotWholeTable = errors.New("not every entity of one table in its row order")

// DespawnDetach is DespawnAll of es, except that the tables whose entities whole lists (each entry every entity of
// one table in its row order, filling at least half of its room, none having a sparse-set component, all of them
// in es) are not cleared row by row: their storage is moved out and returned, by whole's index, and each such
// table starts again with no memory of its own. It returns an error, changing nothing, when an entry of whole is
// not such a table.
func (w *World) DespawnDetach(es []Entity, whole [][]Entity) ([]*Detached, error) {
	w.checkStructural("despawn entities")
	tables := make([]*table, len(whole))
	seen := make(map[*table]bool, len(whole))
	for k, list := range whole {
		t, err := w.wholeTable(list)
		if err == nil && seen[t] {
			err = fmt.Errorf("ecs: detach: table listed twice: %w", ErrNotWholeTable)
		}
		if err != nil {
			return nil, err
		}
		seen[t] = true
		tables[k] = t
	}
	// Every listed entity must be despawned: count those es holds, each once.
	in := 0
	for _, e := range es {
		if w.Alive(e) && seen[w.tables[w.records[e.index].table]] {
			in++
		}
	}
	want := 0
	for _, t := range tables {
		want += len(t.entities)
	}
	if in != want {
		return nil, fmt.Errorf("ecs: detach: %d of the listed tables' %d entities are in the despawned list (or some twice): %w", in, want, ErrNotWholeTable)
	}
	out := make([]*Detached, len(whole))
	if len(tables) == 0 {
		w.DespawnAll(es)
		return out, nil
	}
	w.despawnAll(es, tables, out)
	return out, nil
}

// wholeTable returns the table whose entities, in row order, are list, if they fill at least half of its room and
// none has a sparse-set component.
func (w *World) wholeTable(list []Entity) (*table, error) {
	if len(list) == 0 || !w.Alive(list[0]) {
		return nil, fmt.Errorf("ecs: detach: an empty list or a dead entity: %w", ErrNotWholeTable)
	}
	t := w.tables[w.records[list[0].index].table]
	if len(t.entities) != len(list) {
		return nil, fmt.Errorf("ecs: detach: %d entities of a table of %d: %w", len(list), len(t.entities), ErrNotWholeTable)
	}
	if 2*len(list) < t.cap { // its room, grown for many more, would be held for a few
		return nil, fmt.Errorf("ecs: detach: %d entities fill less than half of their table's room of %d: %w", len(list), t.cap, ErrNotWholeTable)
	}
	for i, e := range list {
		if t.entities[i] != e {
			return nil, fmt.Errorf("ecs: detach: entity %d is %v, row %d holds %v: %w", i, e, i, t.entities[i], ErrNotWholeTable)
		}
	}
	for _, id := range w.sparseIDs {
		s := w.comps[id].sparse
		if s.len() == 0 {
			continue
		}
		for _, e := range list {
			if s.has(e.index) {
				return nil, fmt.Errorf("ecs: detach: %v has sparse-set component %s: %w", e, w.comps[id].info.Name, ErrNotWholeTable)
			}
		}
	}
	return t, nil
}

// detach moves the storage of table t out, ending its entities' rows (the caller frees their slots).
func (w *World) detach(t *table) *Detached {
	d := &Detached{w: w, t: t, cols: make([]column, len(t.cols)), entities: t.entities, cap: t.cap}
	for _, e := range t.entities {
		w.records[e.index].table = noTable
	}
	for i, c := range t.cols {
		d.cols[i] = *c
		// The column keeps its identity (transitions and typed maps hold it), with no rows.
		*c = *newColumn(c.store, 0)
	}
	t.entities = nil
	t.cap = 0
	return d
}

// Len returns the number of entities (rows) d holds.
func (d *Detached) Len() int { return len(d.entities) }

// Bytes returns the memory d holds, as Stats counts a table's: values and change ticks at the table's room, and
// the entity handles (not what values point to).
func (d *Detached) Bytes() int {
	n := 8 * cap(d.entities)
	for i := range d.cols {
		n += colBytes(&d.cols[i], d.cap)
	}
	return n
}

// Values returns the values of component id, one per row, in d's memory (no copy): valid until d is spawned
// again; changes to them change d. It reports false if d's table has no column of id.
func (d *Detached) Values(id ComponentID) (Values, bool) {
	for i, cid := range d.t.ids {
		if cid != id {
			continue
		}
		c := &d.cols[i]
		s := c.store
		return Values{id: id, t: s.info.Type, ops: s.ops, size: s.size, shares: s.info.SharesMemory,
			ptr: c.ptr, n: len(d.entities)}, true
	}
	return Values{}, false
}

// SpawnDetached spawns one entity per row of d, in row order, as SpawnValues would with the values of d's
// non-computed components (and takes the free entity slots as it does). When d's table is empty, the table takes
// d's storage back as its own, copying nothing; computed components then keep the values they had when d was
// detached until the world computes them again (as for any entity spawned, at the next PropagateTransforms).
// Otherwise (or when d is another world's) the values are copied. d is used up: neither it nor Values taken from
// it may be used afterwards.
func (w *World) SpawnDetached(d *Detached) []Entity {
	if d.used {
		panic("ecs: SpawnDetached of a Detached already spawned")
	}
	w.checkStructural("spawn entities")
	t := d.t
	if d.w != w || len(t.entities) != 0 {
		var cols []Values
		for _, id := range t.ids {
			if !w.comps[id].info.Computed {
				v, _ := d.Values(id)
				cols = append(cols, v)
			}
		}
		d.used = true
		return w.SpawnValues(cols, 0, len(d.entities))
	}
	d.used = true
	for i, c := range t.cols {
		*c = d.cols[i]
	}
	n := len(d.entities)
	t.entities = d.entities[:0]
	t.cap = d.cap
	d.cols, d.entities = nil, nil
	reuse := w.free[len(w.free)-min(n, len(w.free)):]
	out := make([]Entity, n)
	w.spawnSlots(t, reuse, out)
	w.free = w.free[:len(w.free)-len(reuse)]
	for _, c := range t.cols {
		c.setTicksRange(0, uint32(n), w.tick)
	}
	return out
}

// WholeTable reports whether es are every entity of one table in its row order, filling at least half of its room
// (the last few of a table that held many more are copied, not moved with all that room), none having a
// sparse-set component: what DespawnDetach can move out whole.
func (w *World) WholeTable(es []Entity) bool {
	_, err := w.wholeTable(es)
	return err == nil
}
