package doc

import (
	"iter"
	"slices"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/radix"
)

// Selection is the document's selection: an ordered set of scene ids, the order is the order of
// selection, the last one is the active entity. Selecting is not an undoable step, but every step
// restores the selection it was done with on undo and redo. Being kept by id, it survives undo, redo
// and reload. A Document has one (Document.Selection).
//
// Membership is kept without a hash map, so that selecting a million entities costs a few passes over
// arrays: ents holds the edit world's entity of each selected id, and at, indexed by entity index,
// the id selected at that index (0: none). Both are resolved from the ids for one state of the
// document's id index (core.structure, the index's length, the world and its entity count) and
// resolved again, lazily, after it changed (an entity of a selected id deleted or restored, a reload).
type Selection struct {
	c *core

	list []uint64     // selection order; the last is the active one
	ents []ecs.Entity // ents[i]: the entity of list[i] (zero if it had none when resolved)
	at   []uint64     // by entity index: the scene id selected there, 0 if none (mirrors ents)

	world          *ecs.World // what ents and at were resolved for
	structure      uint64
	alive, indexed int // the world's entity count, the id index's length

	version uint64

	// Buffers Select All, Invert and the look-up of many ids reuse (a million ids and entities are 16 MB a list,
	// fresh memory or garbage at every use otherwise): the list the last Select All replaced, and the radix sort's
	// second pair.
	spare sortBufs
}

// sortBufs are the buffers of a sort of the world's scene ids with their entities (core.sortedIDs).
type sortBufs struct {
	ids   []uint64
	ents  []ecs.Entity
	radix radix.Buffer[ecs.Entity]
}

// fresh makes the selection's entities those of the document's current state.
func (s *Selection) fresh() {
	if s.world == s.c.world && s.structure == s.c.structure && s.alive == s.c.world.Len() && s.indexed == s.c.indexLen() {
		return
	}
	sameWorld := s.restamp() && len(s.ents) == len(s.list)
	// A handle still alive with its id is still that entity; only the others are looked up (by id: an undo may
	// have brought an entity back under another handle).
	stale := func(i int) bool {
		e := s.ents[i]
		return e.IsZero() || !s.c.world.Alive(e) || s.c.idOf(e) != s.list[i]
	}
	misses := len(s.list)
	if sameWorld {
		misses = 0
		for i := range s.ents {
			if stale(i) {
				misses++
			}
		}
	}
	switch {
	case misses == len(s.list):
		s.ents = s.c.resolveIDs(s.ents[:0], s.list, &s.spare)
	case misses > 0:
		at, ids := make([]int, 0, misses), make([]uint64, 0, misses)
		for i := range s.ents {
			if stale(i) {
				at, ids = append(at, i), append(ids, s.list[i])
			}
		}
		for k, e := range s.c.resolveIDs(nil, ids, &s.spare) {
			s.ents[at[k]] = e
		}
	}
	for i, e := range s.ents {
		if !e.IsZero() && !s.mark(e, s.list[i]) {
			s.ents[i] = ecs.Entity{}
		}
	}
}

// bulkResolve reports whether resolveIDs joins n ids with the world's (of size world) sorted ids instead of
// looking each one up (a variable for tests).
var bulkResolve = func(n, world int) bool { return n >= 4096 && 8*n >= world }

// restoredIDs are the entities es a step brought back or made and their ids (es[i] has ids[i]), while the world's
// shape is still shape: the selection the step restores is often exactly them (a delete of everything selected,
// undone; a grid spawned, or its redo), and is then resolved without looking the ids up.
type restoredIDs struct {
	ids   []uint64
	es    []ecs.Entity
	shape uint64
}

// noteRestored keeps es, the entities a step just brought back or made, and their ids, for the selection the step
// restores (History forgets them once it restored the selection, and after any other command).
func (d *core) noteRestored(ids []uint64, es []ecs.Entity) {
	d.restored = &restoredIDs{ids: ids, es: es, shape: d.world.ShapeVersion()}
}

// resolveIDs appends the entity of each of ids (zero for an id that names none) to dst. Ids that are exactly those
// a step just brought back take its entities (restoredIDs). Other big lists (a selection of a million, restored by
// undo) are joined with the world's ids sorted by radix in buf: two sorts (one if ids are in order already) and a
// merge instead of a million look-ups in a hash map, each a cache miss. dst must not share memory with buf, nor may
// the caller hold buf's lists across the call.
func (d *core) resolveIDs(dst []ecs.Entity, ids []uint64, buf *sortBufs) []ecs.Entity {
	if r := d.restored; r != nil && r.shape == d.world.ShapeVersion() && slices.Equal(ids, r.ids) {
		return append(dst, r.es...)
	}
	if d.indexLen() == 0 { // none names an entity (after a delete of everything)
		n := len(dst)
		dst = slices.Grow(dst, len(ids))[:n+len(ids)]
		clear(dst[n:])
		return dst
	}
	if !bulkResolve(len(ids), d.world.Len()) {
		for _, id := range ids {
			e, _ := d.entity(id)
			dst = append(dst, e)
		}
		return dst
	}
	all, es := d.sortedIDs(buf.ids[:0], buf.ents[:0], &buf.radix)
	defer func() { buf.ids, buf.ents = all[:0], es[:0] }()
	keys, pos := ids, []int32(nil) // pos[k]: where keys[k] is in ids (nil: the same place)
	if !slices.IsSorted(ids) {
		keys, pos = slices.Clone(ids), make([]int32, len(ids))
		for i := range pos {
			pos[i] = int32(i)
		}
		radixSort(keys, pos, nil)
	}
	n := len(dst)
	dst = slices.Grow(dst, len(ids))[:n+len(ids)]
	out := dst[n:]
	clear(out)
	j := 0
	for k, id := range keys {
		for j < len(all) && all[j] < id {
			j++
		}
		if j < len(all) && all[j] == id {
			at := k
			if pos != nil {
				at = int(pos[k])
			}
			out[at] = es[j]
		}
	}
	return dst
}

// mark records id as selected at e's index; false if it already is (a duplicate).
func (s *Selection) mark(e ecs.Entity, id uint64) bool {
	i := int(e.Index())
	if i >= len(s.at) {
		// Grown to the world's room for entities at once (see ecs.World.IndexCap) and used to its capacity, which
		// the runtime hands out zeroed.
		s.at = slices.Grow(s.at, max(i+1, s.c.world.IndexCap())-len(s.at))
		s.at = s.at[:cap(s.at)]
	}
	if s.at[i] == id {
		return false
	}
	s.at[i] = id
	return true
}

// restamp clears the marks of the selected entities (every mark when the document's world is another one) and
// takes the document's current state as the one the selection is for; it reports whether the world is the same.
func (s *Selection) restamp() bool {
	same := s.world == s.c.world
	if same {
		s.unmarkAll()
	} else {
		clear(s.at)
	}
	s.world, s.structure, s.alive, s.indexed = s.c.world, s.c.structure, s.c.world.Len(), s.c.indexLen()
	return same
}

// unmarkAll clears the marks of the selected entities (not the list).
func (s *Selection) unmarkAll() {
	for _, e := range s.ents {
		if !e.IsZero() {
			s.at[e.Index()] = 0
		}
	}
}

// has reports whether e, with scene id id, is selected (after fresh).
func (s *Selection) has(e ecs.Entity, id uint64) bool {
	i := int(e.Index())
	return id != 0 && i < len(s.at) && s.at[i] == id
}

// ids returns a copy of the selected ids in selection order.
func (s *Selection) ids() []uint64 { return slices.Clone(s.list) }

// set replaces the selection with the ids that name an entity (duplicates are dropped, the first
// occurrence kept).
func (s *Selection) set(ids []uint64) {
	if slices.Equal(ids, s.list) {
		return
	}
	// The old entities are unmarked where they were, without looking their ids up again (after a redo of a delete
	// of a million, none is found).
	s.restamp()
	s.list, s.ents = s.list[:0], s.ents[:0]
	s.add(ids)
	s.version++
}

// add appends the ids that name an entity and are not selected yet; it reports whether any was.
func (s *Selection) add(ids []uint64) bool {
	s.fresh()
	s.list = slices.Grow(s.list, len(ids)) // not a doubling at a time
	n := len(s.ents)
	s.ents = s.c.resolveIDs(s.ents, ids, &s.spare) // ents[n+i]: the entity of ids[i], kept below in place
	k := n
	for i, id := range ids {
		if e := s.ents[n+i]; !e.IsZero() && s.mark(e, id) {
			s.list = append(s.list, id)
			s.ents[k] = e
			k++
		}
	}
	s.ents = s.ents[:k]
	return k > n
}

// remove deselects the given ids.
func (s *Selection) remove(ids []uint64) {
	s.fresh()
	n := 0
	for _, id := range ids {
		if e, ok := s.c.entity(id); ok && s.has(e, id) {
			s.at[e.Index()] = 0
			n++
		}
	}
	if n == 0 {
		return
	}
	s.keep(func(i int) bool { e := s.ents[i]; return e.IsZero() || s.at[e.Index()] == s.list[i] })
}

// keep keeps the selected ids at positions where keep is true, in order.
func (s *Selection) keep(keep func(i int) bool) {
	k := 0
	for i := range s.list {
		if keep(i) {
			s.list[k], s.ents[k] = s.list[i], s.ents[i]
			k++
		}
	}
	if k == len(s.list) {
		return
	}
	s.list, s.ents = s.list[:k], s.ents[:k]
	s.version++
}

// IDs returns the selected scene ids in selection order (the last is the active one). The
// slice is a copy.
func (s *Selection) IDs() []uint64 { return s.ids() }

// AppendIDs appends at most n of the selected scene ids, in selection order, to dst and
// returns it (the probe shows the first ones of a big selection).
func (s *Selection) AppendIDs(dst []uint64, n int) []uint64 {
	return append(dst, s.list[:min(n, len(s.list))]...)
}

// Len returns the number of selected entities.
func (s *Selection) Len() int { return len(s.list) }

// Version changes whenever the selection changes.
func (s *Selection) Version() uint64 { return s.version }

// Entities returns the edit world's handles of the selected entities, in selection order
// (the play world has the same handles for them).
func (s *Selection) Entities() []ecs.Entity {
	s.fresh()
	return s.AppendEntities(make([]ecs.Entity, 0, len(s.ents)))
}

// AppendEntities appends the selected entities to dst and returns it (for per-frame use without
// allocation).
func (s *Selection) AppendEntities(dst []ecs.Entity) []ecs.Entity {
	s.fresh()
	dst = slices.Grow(dst, len(s.ents)) // one allocation, not a doubling at a time: a million selected
	for _, e := range s.ents {
		if !e.IsZero() {
			dst = append(dst, e)
		}
	}
	return dst
}

// View returns the selected entities in selection order, as AppendEntities does, but as the selection's own list
// when every selected id names an entity (a million selected are not copied): read it only until the document or
// the selection changes next.
func (s *Selection) View() []ecs.Entity {
	s.fresh()
	if slices.Contains(s.ents, ecs.Entity{}) {
		return s.AppendEntities(nil)
	}
	return s.ents
}

// All yields the selected entities in selection order, without copying them (the selection must not change while
// it does).
func (s *Selection) All() iter.Seq[ecs.Entity] {
	s.fresh()
	return func(yield func(ecs.Entity) bool) {
		for _, e := range s.ents {
			if !e.IsZero() && !yield(e) {
				return
			}
		}
	}
}

// Active returns the active entity: the one selected last (ok false if nothing is selected).
func (s *Selection) Active() (ecs.Entity, bool) {
	s.fresh()
	if n := len(s.ents); n > 0 && !s.ents[n-1].IsZero() {
		return s.ents[n-1], true
	}
	return ecs.Entity{}, false
}

// IsSelected reports whether e is selected.
func (s *Selection) IsSelected(e ecs.Entity) bool {
	if len(s.list) == 0 || !s.c.world.Alive(e) {
		return false
	}
	s.fresh()
	return s.has(e, s.c.idOf(e))
}

// IsSelectedID reports whether the entity with scene id id is selected. It looks the id up, which waits for the
// index of ids while a load or an undo fills it beside: with the entity at hand, IsSelected does not.
func (s *Selection) IsSelectedID(id uint64) bool {
	if len(s.list) == 0 {
		return false
	}
	e, ok := s.c.entity(id)
	if !ok {
		return false
	}
	s.fresh()
	return s.has(e, id)
}

// Select replaces the selection with es (a click). Selecting is not an undoable step, but every
// step restores the selection it was done with on undo and redo.
func (s *Selection) Select(es ...ecs.Entity) { s.set(s.c.liveIDs(es)) }

// SelectIDs replaces the selection with the entities of the given scene ids (unknown ids are
// ignored).
func (s *Selection) SelectIDs(ids ...uint64) { s.set(ids) }

// Add adds es at the end of the selection (Shift-click); the last becomes active.
// Entities already selected keep their place.
func (s *Selection) Add(es ...ecs.Entity) {
	if s.add(s.c.liveIDs(es)) {
		s.version++
	}
}

// Deselect removes es from the selection.
func (s *Selection) Deselect(es ...ecs.Entity) { s.remove(s.c.liveIDs(es)) }

// Toggle selects e if it is not selected and deselects it otherwise (Ctrl-click).
func (s *Selection) Toggle(e ecs.Entity) {
	id := s.c.idFor(e)
	if id == 0 {
		return
	}
	if s.IsSelectedID(id) {
		s.remove([]uint64{id})
	} else {
		s.Add(e)
	}
}

// Clear deselects everything.
func (s *Selection) Clear() { s.set(nil) }

// SelectAll selects every entity, in the order the world stores them (for a scene as loaded or spawned, the
// order it was made in). It reads the ids from the world's columns, without looking each one up.
func (s *Selection) SelectAll() {
	s.fresh() // first: its look-up of many ids sorts in the spare buffers that are about to hold the new list
	ids, es := s.c.worldIDs(s.spare.ids[:0], s.spare.ents[:0])
	s.replace(ids, es)
}

// Invert selects every entity that is not selected and deselects the others (Blender's
// Ctrl+I), in the world's order like SelectAll.
func (s *Selection) Invert() {
	s.fresh() // first, as in SelectAll
	ids, es := s.c.worldIDs(s.spare.ids[:0], s.spare.ents[:0])
	k := 0
	for i, e := range es {
		if !s.has(e, ids[i]) {
			ids[k], es[k] = ids[i], e
			k++
		}
	}
	s.replace(ids[:k], es[:k])
}

// replace makes ids (with their entities es, all live and distinct) the selection; the list it replaces (or ids,
// if it is the selection already) is kept for the next Select All.
func (s *Selection) replace(ids []uint64, es []ecs.Entity) {
	if slices.Equal(ids, s.list) {
		s.spare.ids, s.spare.ents = ids[:0], es[:0]
		return
	}
	s.fresh()
	s.unmarkAll()
	s.spare.ids, s.spare.ents = s.list[:0], s.ents[:0]
	s.list, s.ents = ids, es
	for i, e := range es {
		s.mark(e, ids[i])
	}
	s.version++
}

// sortedIDs returns the scene ids of all entities in ascending order, and their entities, appended to ids and es
// (empty; grown as needed), sorting with tmp's buffers if tmp is not nil.
func (d *core) sortedIDs(ids []uint64, es []ecs.Entity, tmp *radix.Buffer[ecs.Entity]) ([]uint64, []ecs.Entity) {
	ids, es = d.worldIDs(ids, es)
	radixSort(ids, es, tmp)
	return ids, es
}

// worldIDs returns the scene ids of all entities in the world's order (table by table, row by row), and their
// entities, appended to ids and es (empty; grown as needed).
func (d *core) worldIDs(ids []uint64, es []ecs.Entity) ([]uint64, []ecs.Entity) {
	q := ecs.NewQuery1[scene.SceneID](d.world, ecs.Read[scene.SceneID]())
	n := q.Count()
	ids, es = slices.Grow(ids[:0], n), slices.Grow(es[:0], n)
	q.Each(func(e ecs.Entity, s *scene.SceneID) {
		if s.ID != 0 {
			ids = append(ids, s.ID)
			es = append(es, e)
		}
	})
	return ids, es
}

// radixSort sorts keys ascending, moving vals with them: radix.Sort, or for fewer than 256 keys a comparison sort
// (not stable); an already sorted input costs one pass. buf, when not nil, keeps the second buffers for the next
// sort.
func radixSort[V any](keys []uint64, vals []V, buf *radix.Buffer[V]) {
	if len(keys) >= 256 {
		radix.Sort(keys, vals, buf)
		return
	}
	if slices.IsSorted(keys) {
		return
	}
	idx := make([]int, len(keys))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		switch {
		case keys[a] < keys[b]:
			return -1
		case keys[a] > keys[b]:
			return 1
		}
		return 0
	})
	k2, v2 := slices.Clone(keys), slices.Clone(vals)
	for i, j := range idx {
		keys[i], vals[i] = k2[j], v2[j]
	}
}

// liveIDs returns the scene ids of the live entities among es.
func (d *core) liveIDs(es []ecs.Entity) []uint64 {
	ids := make([]uint64, 0, len(es))
	for _, e := range es {
		if id := d.idFor(e); id != 0 {
			ids = append(ids, id)
		}
	}
	return ids
}

// prune drops selected ids that name no entity.
func (s *Selection) prune() {
	s.fresh()
	s.keep(func(i int) bool { return !s.ents[i].IsZero() })
}

func sortIDs(ids []uint64) { slices.Sort(ids) }
