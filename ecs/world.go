package ecs

import (
	"fmt"
	"reflect"
	"slices"
)

// World holds entities, their components, resources, events and systems.
//
// A World is not safe for concurrent use, except that the scheduler runs systems with disjoint
// declared access in parallel (see Schedule).
type World struct {
	records []record // by entity index; index 0 is reserved
	free    []uint32 // free entity indices (LIFO)
	alive   int

	tables      []*table
	tableByMask map[mask]*table

	comps    []*componentStore
	compIDs  []ComponentID
	typeToID map[reflect.Type]ComponentID
	// spawnTypes and spawnNext: the last value types Spawn met, with their ids (spawnIDOf).
	spawnTypes [8]typeHit
	spawnNext  uint8
	nameToID   map[string]ComponentID
	sparseIDs  []ComponentID

	tick uint32 // current change tick (starts at 1)
	// locks counts running query iterations; structural changes panic while it is non-zero.
	locks int32
	// frozen is set while the scheduler runs systems in parallel: queries neither lock the world nor
	// advance the tick.
	frozen bool
	// loans are the world's loans to readers on other goroutines that may not have ended (see Lend).
	loans []*loan
	// shares are the snapshots that may still read the world's memory; structShared says its entity records,
	// tables' entities, hierarchy and sparse sets are among what they read (see Snapshot).
	shares       []*snapshotHold
	structShared bool
	// snapshot: the world is a Snapshot, whose computed components read as zero (their memory is not its own).
	snapshot bool

	hier      hierarchy
	resources map[reflect.Type]*resourceEntry
	events    map[reflect.Type]eventQueue
	schedule  *Schedule
	updates   uint64

	transformID, globalID ComponentID
	prop                  propagation
	cmds                  *Commands
	valueBuf              []spawnValue
	checking              *System // the running system, when the schedule checks access
}

// NewWorld returns an empty world with the built-in components Transform and GlobalTransform
// registered.
func NewWorld() *World {
	w := &World{
		records:     make([]record, 1, 64),
		tableByMask: map[mask]*table{},
		typeToID:    map[reflect.Type]ComponentID{},
		nameToID:    map[string]ComponentID{},
		tick:        1,
		resources:   map[reflect.Type]*resourceEntry{},
		events:      map[reflect.Type]eventQueue{},
	}
	w.records[0] = record{table: noTable, gen: 1} // the zero Entity never matches
	w.newTable(mask{})
	w.transformID = Register[Transform](w)
	w.globalID = Register[GlobalTransform](w, withComputed())
	w.comps[w.transformID].requires = []ComponentID{w.globalID}
	return w
}

// Alive reports whether e is a live entity of w (false for the zero Entity and stale handles).
func (w *World) Alive(e Entity) bool {
	return int(e.index) < len(w.records) && e.index != 0 && w.records[e.index].gen == e.gen &&
		w.records[e.index].table != noTable
}

// Len returns the number of live entities. O(1).
func (w *World) Len() int { return w.alive }

// Tick returns the current change tick. Writes are stamped with it; it advances by one on every
// Update and after every run of a query with a Changed or Added filter (so that each change is seen
// exactly once by each query, as in Bevy).
func (w *World) Tick() uint32 { return w.tick }

// Updates returns how many times Update has run.
func (w *World) Updates() uint64 { return w.updates }

func (w *World) checkStructural(op string) {
	w.beforeWrite()
	if w.locks != 0 || w.frozen {
		panic(fmt.Sprintf("ecs: cannot %s while a query is iterating (or systems run in parallel): "+
			"record it in a command buffer (w.Commands(), or the *Commands passed to a system) and it is applied "+
			"after the loop; if you broke out of a query loop, call Close on the iterator", op))
	}
}

func (w *World) advanceTick() {
	if !w.frozen {
		w.tick++
	}
}

// newEntity allocates an entity slot and places it in table t; it returns the entity and its row.
func (w *World) newEntity(t *table) (Entity, uint32) {
	var e Entity
	if n := len(w.free); n > 0 {
		idx := w.free[n-1]
		w.free = w.free[:n-1]
		e = Entity{index: idx, gen: w.records[idx].gen}
	} else {
		e = Entity{index: uint32(len(w.records))}
		w.records = append(w.records, record{})
	}
	row := t.pushEntity(e)
	r := &w.records[e.index]
	r.table = t.index
	r.row = row
	w.alive++
	w.hier.changed(e.index)
	return e, row
}

// freeInOrder readies the free list for n spawns that should take the last n slots freed in the order they were
// freed: newEntity takes the last entry, so that part of the list is turned around.
func (w *World) freeInOrder(n int) {
	slices.Reverse(w.free[len(w.free)-min(n, len(w.free)):])
}

type spawnValue struct {
	id ComponentID
	v  any
}

// Spawn creates an entity with the given component values (each a registered component type T or
// *T; nil entries are ignored) and returns it. It panics if a value's type is not registered (with
// the Register call to add) or if a type appears twice.
func (w *World) Spawn(values ...any) Entity {
	w.checkStructural("spawn an entity")
	vals := w.valueBuf[:0]
	var m mask
	var all mask
	for _, v := range values {
		if v == nil {
			continue
		}
		id, ok := w.spawnIDOf(v)
		if !ok {
			panic(unregisteredMsg(reflect.TypeOf(v)))
		}
		if all.has(id) {
			panic(fmt.Sprintf("ecs: Spawn got two values of component %s; pass each component once", w.comps[id].info.Name))
		}
		if w.comps[id].info.Computed {
			panic(fmt.Sprintf("ecs: component %s is computed by the world and cannot be spawned", w.comps[id].info.Name))
		}
		all.set(id)
		vals = append(vals, spawnValue{id, v})
	}
	// required companions (Transform -> GlobalTransform)
	for _, sv := range vals {
		for _, r := range w.comps[sv.id].requires {
			if !all.has(r) {
				all.set(r)
				vals = append(vals, spawnValue{r, nil})
			}
		}
	}
	for _, sv := range vals {
		if w.comps[sv.id].sparse == nil {
			m.set(sv.id)
		}
	}
	t := w.tableFor(m)
	e, row := w.newEntity(t)
	for _, sv := range vals {
		c, r := w.place(e, w.comps[sv.id], t, row)
		if c.size != 0 {
			if sv.v == nil {
				c.ops.setDefault(c.at(r))
			} else {
				c.ops.store(c.at(r), sv.v)
			}
		}
	}
	for i := range vals {
		vals[i].v = nil
	}
	w.valueBuf = vals[:0]
	return e
}

func unregisteredMsg(t reflect.Type) string {
	if t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return fmt.Sprintf("ecs: %v is not a registered component type: call ecs.Register[%v](w) before using it", t, t)
}

// Despawn removes a live entity and all its components. Its children (if any) become roots. It
// returns false (and does nothing) for a dead or stale handle.
func (w *World) Despawn(e Entity) bool {
	if !w.Alive(e) {
		return false
	}
	w.checkStructural("despawn an entity")
	if w.hier.active {
		w.hierDespawn(e)
	}
	w.despawnUnchecked(e)
	return true
}

func (w *World) despawnUnchecked(e Entity) {
	for _, id := range w.sparseIDs {
		w.comps[id].sparse.remove(e.index)
	}
	r := &w.records[e.index]
	w.removeRow(w.tables[r.table], r.row)
	w.freed(e)
}

// freed ends the record of e, whose row is removed: its slot gets the next generation and goes on the free list.
func (w *World) freed(e Entity) {
	r := &w.records[e.index]
	r.table = noTable
	r.gen++
	w.free = append(w.free, e.index)
	w.alive--
	w.hier.changed(e.index)
}

// EachEntity calls fn for every live entity in ascending index order until fn returns false. The
// world must not be changed structurally from fn.
func (w *World) EachEntity(fn func(Entity) bool) {
	w.locks++
	defer func() { w.locks-- }()
	w.ReadEntities(fn)
}

// Update advances the world by one step: it runs the schedule (if systems were added), applies the
// world command buffer, propagates transforms, drops events older than two updates and advances the
// tick by one.
func (w *World) Update() {
	if w.schedule != nil {
		w.schedule.run(w)
	}
	_ = w.Commands().Apply() // failed operations are skipped, as Apply documents
	w.PropagateTransforms()
	w.updateEvents()
	w.updates++
	w.tick++
}

// DespawnAll despawns the live entities of es as Despawn would one after the other, in that order (dead, stale
// and repeated handles are skipped): children become roots, and the freed slots are reused as after those
// Despawns, the last freed first. A table losing many of its rows has them removed from its last row up, so that
// no row is moved into a place that a later removal frees again: despawning a whole table moves nothing, where
// Despawn in row order would move every row once.
func (w *World) DespawnAll(es []Entity) {
	w.checkStructural("despawn entities")
	if len(es) < 64 {
		for _, e := range es {
			w.Despawn(e)
		}
		return
	}
	w.despawnAll(es, nil, nil)
}

// despawnAll is DespawnAll of many entities at once; the tables of whole (checked by the caller: see DespawnDetach)
// have their storage moved into out (by whole's index) instead of their rows cleared.
func (w *World) despawnAll(es []Entity, whole []*table, out []*Detached) {
	// Rows to remove, by table: a bit per row.
	rows := make(map[uint32][]uint64)
	counts := make(map[uint32]int)
	gone := es[:0:0] // es itself while none is skipped (no copy of a million handles)
	for i, e := range es {
		skip := !w.Alive(e)
		if !skip {
			r := w.records[e.index]
			b := rows[r.table]
			if b == nil {
				b = make([]uint64, (len(w.tables[r.table].entities)+63)/64)
				rows[r.table] = b
			}
			skip = b[r.row>>6]&(1<<(r.row&63)) != 0 // repeated
			if !skip {
				b[r.row>>6] |= 1 << (r.row & 63)
				counts[r.table]++
			}
		}
		switch {
		case skip && cap(gone) == 0:
			gone = append(make([]Entity, 0, len(es)), es[:i]...)
		case !skip && cap(gone) != 0:
			gone = append(gone, e)
		}
	}
	if cap(gone) == 0 {
		gone = es
	}
	for _, e := range gone {
		if w.hier.active {
			w.hierDespawn(e)
		}
		for _, id := range w.sparseIDs {
			w.comps[id].sparse.remove(e.index)
		}
	}
	for k, t := range whole {
		out[k] = w.detach(t)
		delete(rows, t.index)
	}
	for ti, b := range rows {
		t := w.tables[ti]
		if 8*counts[ti] < len(t.entities) { // few: one by one (no pass over the table's rows)
			continue
		}
		for row := len(t.entities) - 1; row >= 0; row-- {
			if b[row>>6]&(1<<(row&63)) != 0 {
				w.records[t.entities[row].index].table = noTable
				w.removeRow(t, uint32(row))
			}
		}
	}
	for _, e := range gone {
		if r := w.records[e.index]; r.table != noTable {
			w.removeRow(w.tables[r.table], r.row)
		}
		w.freed(e)
	}
}
