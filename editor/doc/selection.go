package doc

import (
	"slices"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// selection is an ordered set of scene ids: the order is the order of selection, the last one is
// the active entity.
//
// Membership is kept without a hash map, so that selecting a million entities costs a few passes over
// arrays: ents holds the edit world's entity of each selected id, and at, indexed by entity index,
// the id selected at that index (0: none). Both are resolved from the ids for one state of the
// document's id index (Document.structure, the index's length, the world and its entity count) and
// resolved again, lazily, after it changed (an entity of a selected id deleted or restored, a reload).
type selection struct {
	list []uint64     // selection order; the last is the active one
	ents []ecs.Entity // ents[i]: the entity of list[i] (zero if it had none when resolved)
	at   []uint64     // by entity index: the scene id selected there, 0 if none (mirrors ents)

	world          *ecs.World // what ents and at were resolved for
	structure      uint64
	alive, indexed int // the world's entity count, the id index's length

	version uint64
}

// fresh makes the selection's entities those of the document's current state.
func (d *Document) fresh() {
	s := &d.sel
	if s.world == d.world && s.structure == d.structure && s.alive == d.world.Len() && s.indexed == len(d.byID) {
		return
	}
	if s.world != d.world {
		clear(s.at)
	} else {
		s.unmarkAll()
	}
	s.world, s.structure, s.alive, s.indexed = d.world, d.structure, d.world.Len(), len(d.byID)
	s.ents = d.resolveIDs(s.ents[:0], s.list)
	for i, e := range s.ents {
		if !e.IsZero() && !s.mark(e, s.list[i]) {
			s.ents[i] = ecs.Entity{}
		}
	}
}

// bulkResolve reports whether resolveIDs joins n ids with the world's (of size world) sorted ids instead of
// looking each one up (a variable for tests).
var bulkResolve = func(n, world int) bool { return n >= 4096 && 8*n >= world }

// resolveIDs appends the entity of each of ids (zero for an id that names none) to dst. Many ids (a selection of a
// million, restored by undo) are joined with the world's ids sorted by radix: two sorts and a merge instead of a
// million look-ups in a hash map, each a cache miss.
func (d *Document) resolveIDs(dst []ecs.Entity, ids []uint64) []ecs.Entity {
	if !bulkResolve(len(ids), d.world.Len()) {
		for _, id := range ids {
			e, _ := d.entity(id)
			dst = append(dst, e)
		}
		return dst
	}
	all, es := d.sortedIDs()
	keys, pos := slices.Clone(ids), make([]int32, len(ids))
	for i := range pos {
		pos[i] = int32(i)
	}
	radixSort(keys, pos)
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
			out[pos[k]] = es[j]
		}
	}
	return dst
}

// mark records id as selected at e's index; false if it already is (a duplicate).
func (s *selection) mark(e ecs.Entity, id uint64) bool {
	i := int(e.Index())
	if i >= len(s.at) {
		n, old := max(i+1, 2*len(s.at)), len(s.at)
		s.at = slices.Grow(s.at, n-old)[:n]
		clear(s.at[old:])
	}
	if s.at[i] == id {
		return false
	}
	s.at[i] = id
	return true
}

// unmarkAll clears the marks of the selected entities (not the list).
func (s *selection) unmarkAll() {
	for _, e := range s.ents {
		if !e.IsZero() {
			s.at[e.Index()] = 0
		}
	}
}

// has reports whether e, with scene id id, is selected (after fresh).
func (s *selection) has(e ecs.Entity, id uint64) bool {
	i := int(e.Index())
	return id != 0 && i < len(s.at) && s.at[i] == id
}

// ids returns a copy of the selected ids in selection order.
func (s *selection) ids() []uint64 { return slices.Clone(s.list) }

// set replaces the selection with the ids that name an entity (duplicates are dropped, the first
// occurrence kept).
func (d *Document) setSel(ids []uint64) {
	s := &d.sel
	if slices.Equal(ids, s.list) {
		return
	}
	d.fresh()
	s.unmarkAll()
	s.list, s.ents = s.list[:0], s.ents[:0]
	d.addSel(ids)
	s.version++
}

// addSel appends the ids that name an entity and are not selected yet; it reports whether any was.
func (d *Document) addSel(ids []uint64) bool {
	d.fresh()
	s := &d.sel
	changed := false
	for i, e := range d.resolveIDs(nil, ids) {
		if id := ids[i]; !e.IsZero() && s.mark(e, id) {
			s.list = append(s.list, id)
			s.ents = append(s.ents, e)
			changed = true
		}
	}
	return changed
}

// removeSel deselects the given ids.
func (d *Document) removeSel(ids []uint64) {
	d.fresh()
	s := &d.sel
	n := 0
	for _, id := range ids {
		if e, ok := d.entity(id); ok && s.has(e, id) {
			s.at[e.Index()] = 0
			n++
		}
	}
	if n == 0 {
		return
	}
	d.keepSel(func(i int) bool { e := s.ents[i]; return e.IsZero() || s.at[e.Index()] == s.list[i] })
}

// keepSel keeps the selected ids at positions where keep is true, in order.
func (d *Document) keepSel(keep func(i int) bool) {
	s := &d.sel
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

// Selection returns the selected scene ids in selection order (the last is the active one). The
// slice is a copy.
func (d *Document) Selection() []uint64 { return d.sel.ids() }

// AppendSelection appends at most n of the selected scene ids, in selection order, to dst and
// returns it (the probe shows the first ones of a big selection).
func (d *Document) AppendSelection(dst []uint64, n int) []uint64 {
	return append(dst, d.sel.list[:min(n, len(d.sel.list))]...)
}

// SelectionLen returns the number of selected entities.
func (d *Document) SelectionLen() int { return len(d.sel.list) }

// SelectionVersion changes whenever the selection changes.
func (d *Document) SelectionVersion() uint64 { return d.sel.version }

// SelectedEntities returns the edit world's handles of the selected entities, in selection order
// (the play world has the same handles for them).
func (d *Document) SelectedEntities() []ecs.Entity {
	d.fresh()
	return d.AppendSelected(make([]ecs.Entity, 0, len(d.sel.ents)))
}

// AppendSelected appends the selected entities to dst and returns it (for per-frame use without
// allocation).
func (d *Document) AppendSelected(dst []ecs.Entity) []ecs.Entity {
	d.fresh()
	for _, e := range d.sel.ents {
		if !e.IsZero() {
			dst = append(dst, e)
		}
	}
	return dst
}

// Active returns the active entity: the one selected last (ok false if nothing is selected).
func (d *Document) Active() (ecs.Entity, bool) {
	d.fresh()
	if n := len(d.sel.ents); n > 0 && !d.sel.ents[n-1].IsZero() {
		return d.sel.ents[n-1], true
	}
	return ecs.Entity{}, false
}

// IsSelected reports whether e is selected.
func (d *Document) IsSelected(e ecs.Entity) bool {
	if len(d.sel.list) == 0 || !d.world.Alive(e) {
		return false
	}
	d.fresh()
	return d.sel.has(e, d.idOf(e))
}

// IsSelectedID reports whether the entity with scene id id is selected.
func (d *Document) IsSelectedID(id uint64) bool {
	if len(d.sel.list) == 0 {
		return false
	}
	e, ok := d.entity(id)
	if !ok {
		return false
	}
	d.fresh()
	return d.sel.has(e, id)
}

// Select replaces the selection with es (a click). Selecting is not an undoable step, but every
// step restores the selection it was done with on undo and redo.
func (d *Document) Select(es ...ecs.Entity) { d.setSel(d.liveIDs(es)) }

// SelectIDs replaces the selection with the entities of the given scene ids (unknown ids are
// ignored).
func (d *Document) SelectIDs(ids ...uint64) { d.setSel(ids) }

// AddToSelection adds es at the end of the selection (Shift-click); the last becomes active.
// Entities already selected keep their place.
func (d *Document) AddToSelection(es ...ecs.Entity) {
	if d.addSel(d.liveIDs(es)) {
		d.sel.version++
	}
}

// Deselect removes es from the selection.
func (d *Document) Deselect(es ...ecs.Entity) { d.removeSel(d.liveIDs(es)) }

// ToggleSelected selects e if it is not selected and deselects it otherwise (Ctrl-click).
func (d *Document) ToggleSelected(e ecs.Entity) {
	id := d.idOf(e)
	if id == 0 {
		return
	}
	if d.IsSelectedID(id) {
		d.removeSel([]uint64{id})
	} else {
		d.AddToSelection(e)
	}
}

// ClearSelection deselects everything.
func (d *Document) ClearSelection() { d.setSel(nil) }

// SelectAll selects every entity, in ascending scene id order. It reads the ids from the world's
// columns and sorts them by radix, without looking each one up.
func (d *Document) SelectAll() {
	ids, es := d.sortedIDs()
	d.replaceSel(ids, es)
}

// InvertSelection selects every entity that is not selected and deselects the others (Blender's
// Ctrl+I), in ascending scene id order like SelectAll.
func (d *Document) InvertSelection() {
	ids, es := d.sortedIDs()
	d.fresh()
	k := 0
	for i, e := range es {
		if !d.sel.has(e, ids[i]) {
			ids[k], es[k] = ids[i], e
			k++
		}
	}
	d.replaceSel(ids[:k], es[:k])
}

// replaceSel makes ids (with their entities es, all live and distinct) the selection.
func (d *Document) replaceSel(ids []uint64, es []ecs.Entity) {
	s := &d.sel
	if slices.Equal(ids, s.list) {
		return
	}
	d.fresh()
	s.unmarkAll()
	s.list, s.ents = ids, es
	for i, e := range es {
		s.mark(e, ids[i])
	}
	s.version++
}

// sortedIDs returns the scene ids of all entities in ascending order, and their entities.
func (d *Document) sortedIDs() ([]uint64, []ecs.Entity) {
	q := ecs.NewQuery1[scene.SceneID](d.world)
	n := q.Count()
	ids, es := make([]uint64, 0, n), make([]ecs.Entity, 0, n)
	q.Each(func(e ecs.Entity, s *scene.SceneID) {
		if s.ID != 0 {
			ids = append(ids, s.ID)
			es = append(es, e)
		}
	})
	radixSort(ids, es)
	return ids, es
}

// radixSort sorts keys ascending, moving vals with them (LSD radix sort by 11-bit digits, skipping
// digits all keys share; an already sorted input costs one pass).
func radixSort[V any](keys []uint64, vals []V) {
	if slices.IsSorted(keys) {
		return
	}
	if len(keys) < 256 {
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
		return
	}
	const bits = 11
	const buckets = 1 << bits
	var or, and uint64 = 0, ^uint64(0)
	for _, k := range keys {
		or |= k
		and &= k
	}
	src, srcV := keys, vals
	dst, dstV := make([]uint64, len(keys)), make([]V, len(vals))
	var count [buckets]int
	for shift := uint(0); shift < 64; shift += bits {
		if (or^and)>>shift&(buckets-1) == 0 {
			continue // every key has the same digit here
		}
		clear(count[:])
		for _, k := range src {
			count[k>>shift&(buckets-1)]++
		}
		sum := 0
		for i, c := range count {
			count[i], sum = sum, sum+c
		}
		for i, k := range src {
			b := k >> shift & (buckets - 1)
			dst[count[b]], dstV[count[b]] = k, srcV[i]
			count[b]++
		}
		src, dst, srcV, dstV = dst, src, dstV, srcV
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
		copy(vals, srcV)
	}
}

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
	d.fresh()
	d.keepSel(func(i int) bool { return !d.sel.ents[i].IsZero() })
}

func sortIDs(ids []uint64) { slices.Sort(ids) }
