package ecs

import (
	"fmt"
	"unsafe"
)

// Map is a typed accessor for component T of entities. Create it once with NewMap and reuse it:
// it caches what the lookups need.
//
// Reads (Get, TryGet, Has) never mark anything; every write (Mut, Set, Add, Spawn) marks the
// component changed at the world's current tick.
type Map[T any] struct {
	w     *World
	id    ComponentID
	store *componentStore
	// recs and cols locate values: the world's entity records and the component's columns by table,
	// or for SparseSet storage the set's own records and {nil, column}.
	recs *[]record
	cols *[]*column
	// spawn cache: the table for entities with only T (and its companions)
	spawnTable *table
}

// NewMap creates an accessor for component T. It panics if T is not registered.
func NewMap[T any](w *World) *Map[T] {
	id := mustID[T](w)
	m := &Map[T]{w: w, id: id, store: w.comps[id], recs: &w.records, cols: &w.comps[id].cols}
	if sp := m.store.sparse; sp != nil {
		m.recs, m.cols = &sp.recs, &sp.cols
	}
	return m
}

// valueAt returns a pointer to row's value in a column of T. The row's offset uses T's size, a
// constant in compiled code, rather than the column's size field: one load and a multiplication less
// on the way from an entity's record to its value.
func valueAt[T any](c *column, row uint32) *T {
	return (*T)(unsafe.Add(c.ptr, uintptr(row)*unsafe.Sizeof(*new(T))))
}

// ID returns the component's ID.
func (m *Map[T]) ID() ComponentID { return m.id }

// locate returns the column and row of the entity's T, or nil if it is dead or lacks T.
func (m *Map[T]) locate(e Entity) (*column, uint32) {
	if recs := *m.recs; int(e.index) < len(recs) {
		if r := recs[e.index]; r.gen == e.gen {
			if c := (*m.cols)[r.table]; c != nil {
				return c, r.row
			}
		}
	}
	return nil, 0
}

// Get returns a copy of the entity's T. It panics if the entity is dead or lacks T.
func (m *Map[T]) Get(e Entity) T {
	if recs := *m.recs; int(e.index) < len(recs) {
		if r := recs[e.index]; r.gen == e.gen {
			if c := (*m.cols)[r.table]; c != nil {
				return *valueAt[T](c, r.row)
			}
		}
	}
	panic(missingError{m.w, m.store, e})
}

// TryGet returns a copy of the entity's T and true, or the zero T and false if the entity is dead
// or lacks T.
func (m *Map[T]) TryGet(e Entity) (T, bool) {
	c, row := m.locate(e)
	if c == nil {
		var z T
		return z, false
	}
	return *valueAt[T](c, row), true
}

// Mut returns a pointer to the entity's T and marks it changed. The pointer is valid until the next
// structural change. It panics if the entity is dead or lacks T.
func (m *Map[T]) Mut(e Entity) *T {
	c, row := m.locate(e)
	if c == nil {
		panic(m.missing(e))
	}
	m.w.beforeValueWrite(m.id)
	c.markChanged(row, m.w.tick)
	return valueAt[T](c, row)
}

// Set overwrites the entity's T and marks it changed. It panics if the entity is dead or lacks T.
func (m *Map[T]) Set(e Entity, v T) {
	*m.Mut(e) = v
}

// Has reports whether the entity is alive and has T.
func (m *Map[T]) Has(e Entity) bool {
	c, _ := m.locate(e)
	return c != nil
}

// Add adds T with value v to a live entity. It panics if the entity is dead or already has T, and
// while a query iterates (use a command buffer).
func (m *Map[T]) Add(e Entity, v T) {
	w := m.w
	if !w.Alive(e) {
		panic(fmt.Sprintf("ecs: cannot add %s to %v: the entity is not alive", m.store.info.Name, e))
	}
	w.checkStructural("add a component")
	s := m.store
	tick := w.tick
	var c *column
	var row uint32
	if sp := s.sparse; sp != nil {
		if sp.has(e.index) {
			panic(m.already(e))
		}
		row = sp.insert(e)
		c = sp.col
		c.setTicks(row, tick, tick, sp.len())
	} else {
		from := w.tables[w.records[e.index].table]
		if s.cols[from.index] != nil {
			panic(m.already(e))
		}
		tr := w.tableWith(from, m.id)
		to := tr.to
		row = w.moveEntity(e, tr)
		c = s.cols[to.index]
		c.setTicks(row, tick, tick, to.len())
	}
	*valueAt[T](c, row) = v
	if len(s.requires) > 0 {
		w.addCompanions(e, s)
	}
}

// Remove removes T from a live entity. It panics if the entity is dead or lacks T, and while a
// query iterates (use a command buffer).
func (m *Map[T]) Remove(e Entity) {
	w := m.w
	if !w.Alive(e) {
		panic(fmt.Sprintf("ecs: cannot remove %s from %v: the entity is not alive", m.store.info.Name, e))
	}
	w.checkStructural("remove a component")
	s := m.store
	if sp := s.sparse; sp != nil {
		if !sp.remove(e.index) {
			panic(m.missing(e))
		}
		return
	}
	from := w.tables[w.records[e.index].table]
	if s.cols[from.index] == nil {
		panic(m.missing(e))
	}
	w.moveEntity(e, w.tableWithout(from, m.id))
	if len(s.requires) > 0 {
		w.removeCompanions(e, s)
	}
}

// Spawn creates an entity with component T set to v.
func (m *Map[T]) Spawn(v T) Entity {
	w := m.w
	w.checkStructural("spawn an entity")
	t := m.table()
	e, row := w.newEntity(t)
	m.initRow(e, t, row, &v)
	return e
}

// SpawnBatch creates n entities with component T (at its default), calling fn, if not nil, on each. The
// entities take the slots freed last in the order they were freed (as [World.SpawnValues] does): a batch
// despawned in order and spawned again has its old slots, entity for entity (the redo of a spawn).
func (m *Map[T]) SpawnBatch(n int, fn func(e Entity, v *T)) {
	w := m.w
	w.checkStructural("spawn entities")
	t := m.table()
	t.ensure(n)
	w.freeInOrder(n)
	for range n {
		e, row := w.newEntity(t)
		p := m.initRow(e, t, row, nil)
		if fn != nil {
			w.locks++
			fn(e, p)
			w.locks--
		}
	}
}

func (m *Map[T]) table() *table {
	if m.spawnTable == nil {
		var mk mask
		if m.store.sparse == nil {
			mk.set(m.id)
		}
		for _, r := range m.store.requires {
			if m.w.comps[r].sparse == nil {
				mk.set(r)
			}
		}
		m.spawnTable = m.w.tableFor(mk)
	}
	return m.spawnTable
}

// initRow stores v (or the default) and the ticks of a freshly spawned entity.
func (m *Map[T]) initRow(e Entity, t *table, row uint32, v *T) *T {
	w := m.w
	s := m.store
	c, r := w.place(e, s, t, row)
	p := valueAt[T](c, r)
	if v != nil {
		*p = *v
	} else {
		s.ops.setDefault(unsafe.Pointer(p))
	}
	if len(s.requires) > 0 {
		w.initCompanions(e, t, s)
	}
	return p
}

func (m *Map[T]) missing(e Entity) string {
	if !m.w.Alive(e) {
		return fmt.Sprintf("ecs: %v is not alive (despawned or stale handle); check with World.Alive or Map.Has first", e)
	}
	return fmt.Sprintf("ecs: %v has no %s; check with Map.Has or use TryGet", e, m.store.info.Name)
}

func (m *Map[T]) already(e Entity) string {
	return fmt.Sprintf("ecs: %v already has %s; use Set to change it", e, m.store.info.Name)
}

// missingError is the panic value of typed accessors for a dead entity or a missing component; its
// message is formatted only if printed.
type missingError struct {
	w *World
	s *componentStore
	e Entity
}

func (m missingError) Error() string {
	if !m.w.Alive(m.e) {
		return fmt.Sprintf("ecs: %v is not alive (despawned or stale handle); check with World.Alive or Map.Has first", m.e)
	}
	return fmt.Sprintf("ecs: %v has no %s; check with Map.Has or use TryGet", m.e, m.s.info.Name)
}

// place gives entity e (whose Table components are at row of table t) a fresh value slot for
// component s, stamped with the current tick, and returns the slot; the value is left to the caller.
func (w *World) place(e Entity, s *componentStore, t *table, row uint32) (*column, uint32) {
	tick := w.tick
	if sp := s.sparse; sp != nil {
		r := sp.insert(e)
		sp.col.setTicks(r, tick, tick, sp.len())
		return sp.col, r
	}
	c := s.cols[t.index]
	c.setTicks(row, tick, tick, t.len())
	return c, row
}

// placeDefault is place followed by storing the component's default value.
func (w *World) placeDefault(e Entity, s *componentStore, t *table, row uint32) {
	c, r := w.place(e, s, t, row)
	if c.size != 0 {
		c.ops.setDefault(c.at(r))
	}
}

// initCompanions sets the companions of s (already in table t, or sparse) to their defaults.
func (w *World) initCompanions(e Entity, t *table, s *componentStore) {
	for _, r := range s.requires {
		rs := w.comps[r]
		if rs.sparse != nil && rs.sparse.has(e.index) {
			continue
		}
		w.placeDefault(e, rs, t, w.records[e.index].row)
	}
}

func (w *World) addCompanions(e Entity, s *componentStore) {
	for _, r := range s.requires {
		if _, _, ok := w.locate(e, r); !ok {
			c, row := w.addRaw(e, r)
			if c.size != 0 {
				c.ops.setDefault(c.at(row))
			}
		}
	}
}

func (w *World) removeCompanions(e Entity, s *componentStore) {
	for _, r := range s.requires {
		if _, _, ok := w.locate(e, r); ok {
			w.removeRaw(e, r)
		}
	}
}

// mapN is the non-generic part of Map2..Map6.
type mapN struct {
	w      *World
	ids    []ComponentID
	stores []*componentStore
	tmask  mask          // Table components, companions included
	extra  []ComponentID // companions not among ids
	spawnT *table
	// spawnCols are spawnT's columns for ids, when all of them use Table storage and there are no
	// companions (the fast spawn path).
	spawnCols []*column
	p         [maxQ]unsafe.Pointer
	// add/remove transition cache
	addFrom, remFrom *table
	addTr, remTr     *transition
}

func newMapN(w *World, ids []ComponentID) mapN {
	m := mapN{w: w, ids: ids}
	for i, id := range ids {
		for _, o := range ids[:i] {
			if o == id {
				panic(fmt.Sprintf("ecs: Map lists component %s twice", w.comps[id].info.Name))
			}
		}
		s := w.comps[id]
		m.stores = append(m.stores, s)
		if s.sparse == nil {
			m.tmask.set(id)
		}
	}
	for _, s := range m.stores {
		for _, r := range s.requires {
			if !containsID(ids, r) && !containsID(m.extra, r) {
				m.extra = append(m.extra, r)
				if w.comps[r].sparse == nil {
					m.tmask.set(r)
				}
			}
		}
	}
	return m
}

func containsID(ids []ComponentID, id ComponentID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

func (m *mapN) spawn() (Entity, *[maxQ]unsafe.Pointer) {
	w := m.w
	if w.locks != 0 || w.frozen || len(w.loans) > 0 || len(w.shares) > 0 {
		w.checkStructural("spawn an entity")
	}
	if m.spawnT == nil {
		m.initSpawn()
	}
	t := m.spawnT
	e, row := w.newEntity(t)
	if m.spawnCols == nil {
		m.initRow(e, t, row)
		return e, &m.p
	}
	tick := w.tick
	for k, c := range m.spawnCols {
		c.initFresh(row, tick)
		m.p[k] = unsafe.Add(c.ptr, uintptr(row)*c.size)
	}
	return e, &m.p
}

func (m *mapN) initSpawn() {
	m.spawnT = m.w.tableFor(m.tmask)
	if len(m.extra) > 0 {
		return
	}
	var cols []*column
	for _, s := range m.stores {
		if s.sparse != nil {
			return
		}
		cols = append(cols, s.cols[m.spawnT.index])
	}
	m.spawnCols = cols
}

func (m *mapN) initRow(e Entity, t *table, row uint32) {
	w := m.w
	for k, s := range m.stores {
		c, r := w.place(e, s, t, row)
		m.p[k] = c.at(r)
	}
	for _, id := range m.extra {
		w.placeDefault(e, w.comps[id], t, row)
	}
}

func (m *mapN) spawnBatch(n int, fn func(Entity, *[maxQ]unsafe.Pointer)) {
	w := m.w
	w.checkStructural("spawn entities")
	if m.spawnT == nil {
		m.initSpawn()
	}
	t := m.spawnT
	t.ensure(n)
	w.freeInOrder(n)
	for range n {
		e, row := w.newEntity(t)
		m.initRow(e, t, row)
		for k, s := range m.stores {
			if m.p[k] != nil && s.size != 0 {
				s.ops.setDefault(m.p[k])
			}
		}
		w.locks++
		fn(e, &m.p)
		w.locks--
	}
}

func (m *mapN) get(e Entity, mut bool) *[maxQ]unsafe.Pointer {
	w := m.w
	if !w.Alive(e) {
		panic(fmt.Sprintf("ecs: %v is not alive (despawned or stale handle); check with World.Alive first", e))
	}
	if mut {
		for _, id := range m.ids {
			w.beforeValueWrite(id)
		}
	}
	rec := w.records[e.index]
	for k, s := range m.stores {
		var c *column
		r := rec.row
		if sp := s.sparse; sp != nil {
			if sr := sp.row(e.index); sr >= 0 {
				c, r = sp.col, uint32(sr)
			}
		} else {
			c = s.cols[rec.table]
		}
		if c == nil {
			panic(fmt.Sprintf("ecs: %v has no %s; check with Has first", e, s.info.Name))
		}
		if mut {
			c.markChanged(r, w.tick)
		}
		m.p[k] = c.at(r)
	}
	return &m.p
}

func (m *mapN) has(e Entity) bool {
	w := m.w
	if !w.Alive(e) {
		return false
	}
	for _, id := range m.ids {
		if _, _, ok := w.locate(e, id); !ok {
			return false
		}
	}
	return true
}

func (m *mapN) add(e Entity) *[maxQ]unsafe.Pointer {
	w := m.w
	if !w.Alive(e) {
		panic(fmt.Sprintf("ecs: cannot add components to %v: the entity is not alive", e))
	}
	w.checkStructural("add components")
	for _, id := range m.ids {
		if _, _, ok := w.locate(e, id); ok {
			panic(fmt.Sprintf("ecs: %v already has %s; use Set to change it", e, w.comps[id].info.Name))
		}
	}
	from := w.tables[w.records[e.index].table]
	if from != m.addFrom {
		mk := from.mask
		for i := range mk {
			mk[i] |= m.tmask[i]
		}
		m.addFrom, m.addTr = from, w.transition(from, w.tableFor(mk))
	}
	to := m.addTr.to
	row := w.moveEntity(e, m.addTr)
	for k, s := range m.stores {
		c, r := w.place(e, s, to, row)
		m.p[k] = c.at(r)
	}
	for _, id := range m.extra {
		if s := w.comps[id]; !from.mask.has(id) && (s.sparse == nil || !s.sparse.has(e.index)) {
			w.placeDefault(e, s, to, row)
		}
	}
	return &m.p
}

func (m *mapN) remove(e Entity) {
	w := m.w
	if !m.has(e) {
		if !w.Alive(e) {
			panic(fmt.Sprintf("ecs: cannot remove components from %v: the entity is not alive", e))
		}
		panic(fmt.Sprintf("ecs: cannot remove components from %v: it lacks some of them; check with Has first", e))
	}
	w.checkStructural("remove components")
	for _, s := range m.stores {
		if s.sparse != nil {
			s.sparse.remove(e.index)
		}
	}
	for _, id := range m.extra {
		if s := w.comps[id]; s.sparse != nil {
			s.sparse.remove(e.index)
		}
	}
	from := w.tables[w.records[e.index].table]
	if from != m.remFrom {
		mk := from.mask
		for i := range mk {
			mk[i] &^= m.tmask[i]
		}
		m.remFrom, m.remTr = from, w.transition(from, w.tableFor(mk))
	}
	if m.remTr.to != from {
		w.moveEntity(e, m.remTr)
	}
}

// colSlice returns component k of the current table as a slice of n elements.
func colSlice[T any](c *cursor, k int, n int) []T {
	if c.ptr[k] == nil {
		return nil
	}
	return unsafe.Slice((*T)(c.ptr[k]), n)
}
