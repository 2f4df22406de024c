package doc

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/serialize"
)

// entSnap is an entity held by the history: its scene id, its parent's scene id (0 for a root)
// and its components (computed ones excluded; SceneID included).
type entSnap struct {
	id     uint64
	parent uint64
	comps  []compVal
	// src: for an entity of a prefab instance, what it was made from when the snapshot was taken
	// (the zero PrefabSource for others): restores rebase on the prefab as it is then if it
	// changed since (prefab_undo.go).
	src serialize.PrefabSource
}

// siblings is the child order of one parent (by scene id) as it was before a removal, so that
// undo puts the removed children back where they were.
type siblings struct {
	parent   uint64
	children []uint64
}

// snapshot captures entity e.
func (d *core) snapshot(e ecs.Entity) entSnap {
	s := entSnap{id: d.idOf(e), parent: d.idOf(d.world.Parent(e))}
	for _, cid := range d.world.ComponentsOf(e) {
		if d.compType(cid).info.Computed {
			continue
		}
		if c, ok := d.capture(e, cid); ok {
			s.comps = append(s.comps, c)
		}
	}
	return s
}

// topLevel returns the entities of es that have no ancestor in es, without duplicates, in order.
// Each ancestor is walked once (what is known about it is remembered), so the cost is linear in
// the entities and their ancestors whatever the depth; the entities of es are marked in a bitset
// by entity index (a million of them cost no map).
func (d *core) topLevel(es []ecs.Entity) []ecs.Entity {
	const (
		unknown = iota
		inside  // below an entity of es
		outside // neither in es nor below one
	)
	w := d.world
	var in, seen bitset
	for _, e := range es {
		if w.Alive(e) {
			in.set(e.Index())
		}
	}
	state := map[ecs.Entity]uint8{} // ancestors not in es
	var path []ecs.Entity
	// below reports whether e has an ancestor in es.
	below := func(e ecs.Entity) bool {
		path = path[:0]
		p := w.Parent(e)
		s := uint8(outside)
		for ; !p.IsZero(); p = w.Parent(p) {
			if in.has(p.Index()) {
				s = inside
				break
			}
			if st := state[p]; st != unknown {
				s = st
				break
			}
			path = append(path, p)
		}
		for _, q := range path {
			state[q] = s
		}
		return s == inside
	}
	out := make([]ecs.Entity, 0, len(es))
	for _, e := range es {
		if !w.Alive(e) || seen.has(e.Index()) {
			continue
		}
		seen.set(e.Index())
		if !below(e) {
			out = append(out, e)
		}
	}
	return out
}

// byIndex returns es (distinct entities) sorted by entity index: the world stores entities made
// together near each other, so a million entities (a selection comes in the order of a map) are
// then read and despawned in memory order, several times quicker than in random order. A counting
// sort: linear in len(es) and the highest index. Entities already in order (restored by undo) are es itself.
func byIndex(es []ecs.Entity) []ecs.Entity {
	inOrder := true
	for i := 1; i < len(es) && inOrder; i++ {
		inOrder = es[i-1].Index() < es[i].Index()
	}
	if inOrder {
		return es
	}
	if len(es) < 1024 {
		return slices.SortedFunc(slices.Values(es), func(a, b ecs.Entity) int { return cmp.Compare(a.Index(), b.Index()) })
	}
	hi := uint32(0)
	for _, e := range es {
		hi = max(hi, e.Index())
	}
	at := make([]ecs.Entity, hi+1)
	var in bitset
	for _, e := range es {
		at[e.Index()] = e
		in.set(e.Index())
	}
	out := make([]ecs.Entity, 0, len(es))
	for i, e := range at {
		if in.has(uint32(i)) {
			out = append(out, e)
		}
	}
	return out
}

// bitset is a set of small non-negative integers (entity indices).
type bitset []uint64

func (b *bitset) set(i uint32) {
	if k := int(i >> 6); k >= len(*b) {
		*b = append(*b, make([]uint64, k+1-len(*b)+len(*b)/2)...)
	}
	(*b)[i>>6] |= 1 << (i & 63)
}

func (b bitset) has(i uint32) bool { k := int(i >> 6); return k < len(b) && b[k]&(1<<(i&63)) != 0 }

// preorder lists roots and all their descendants, each parent before its children, children in
// their order. When no root has children, that is roots itself.
func preorder(w *ecs.World, roots []ecs.Entity) []ecs.Entity {
	if !slices.ContainsFunc(roots, func(e ecs.Entity) bool { return w.ChildCount(e) > 0 }) {
		return roots // a flat scene's
	}
	return preorderWithout(w, roots, nil)
}

// preorderWithout is preorder without the subtrees of the entities skip reports (none when skip is nil).
func preorderWithout(w *ecs.World, roots []ecs.Entity, skip func(ecs.Entity) bool) []ecs.Entity {
	out := make([]ecs.Entity, 0, len(roots)) // at least the roots
	var stack []ecs.Entity
	for _, r := range roots {
		stack = append(stack[:0], r)
		for len(stack) > 0 {
			e := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if skip != nil && skip(e) {
				continue
			}
			out = append(out, e)
			n := len(stack)
			stack = w.AppendChildren(stack, e)
			slices.Reverse(stack[n:]) // so that they pop in order
		}
	}
	return out
}

// removal is what undoing a removal needs: the removed entities in preorder, the child order of
// each surviving parent before, and the components of surviving entities that referred to removed
// ones (restoring them points the references at the restored entities).
type removal struct {
	pack    *pack
	order   []siblings
	holders []heldRef
}

// heldRef is a component value (references by scene id) of entity id.
type heldRef struct {
	id  uint64
	val compVal
}

// keepMode says what removeTrees keeps of what it removes.
type keepMode int

const (
	keepNothing keepMode = iota
	keepPack             // the pack (entities, values, prefab sources): a delete's redo after its undo lent it
	keepAll              // all that restorePack needs to undo the removal
)

// removeTrees despawns roots (top-level entities) with all their descendants. Surviving parents
// keep their other children in order. It returns what keep says of what restoreTrees needs to undo it: with
// keepPack and lent, the pack whose storage the world holds (pack.lent) and that these entities are, lent takes it
// back when it can (canTakeBack), and is the pack returned.
func (d *core) removeTrees(roots []ecs.Entity, keep keepMode, lent *pack) removal {
	w := d.world
	roots = byIndex(roots)
	all := preorder(w, roots)
	var rm removal
	var members [][]ecs.Entity
	var whole []int
	back := keep == keepPack && lent != nil && d.canTakeBack(lent, all)
	if keep != keepNothing && !back {
		rm.pack, members = d.planPack(all)
		whole = d.wholeGroups(rm.pack, members)
		copyColumns(w, rm.pack, members, otherGroups(rm.pack, whole))
		d.packRefs(rm.pack)
		d.captureBasesPack(rm.pack, all)
		if keep == keepAll {
			rm.holders = d.holdersOf(all)
		}
	}
	// Detach the roots from surviving parents first, one rewrite per parent.
	removed := make(map[ecs.Entity]bool) // the roots that have parents
	var parents []ecs.Entity
	isParent := make(map[ecs.Entity]bool)
	for _, r := range roots {
		p := w.Parent(r)
		if p.IsZero() {
			continue
		}
		removed[r] = true
		if !isParent[p] {
			isParent[p] = true
			parents = append(parents, p)
		}
	}
	for _, p := range parents {
		cs := w.Children(p)
		if keep == keepAll {
			rm.order = append(rm.order, siblings{parent: d.idOf(p), children: d.idsOf(cs)})
		}
		d.setChildren(p, slices.DeleteFunc(cs, func(c ecs.Entity) bool { return removed[c] }))
	}
	// Parents before children: despawning a parent makes its children roots in one pass, so no
	// child is ever looked up in a long sibling list.
	bulk := d.bulkRemoval(len(all))
	if !bulk {
		for _, e := range all {
			delete(d.byID(), d.idOf(e))
			d.structure++
		}
	}
	switch {
	case back:
		d.takeBack(lent, all)
		rm.pack = lent
	case rm.pack != nil:
		d.despawnPack(rm.pack, members, whole, all)
		rm.pack.count()
	default:
		w.DespawnAll(all)
	}
	if bulk {
		d.pruneIndex()
	}
	return rm
}

// bulkRemoval reports whether removing n entities should rebuild the scene-id index rather than
// delete its keys one by one (pruneIndex after despawning them).
func (d *core) bulkRemoval(n int) bool { return n >= 1024 && 4*n >= d.indexLen() }

// pruneIndex rebuilds the scene-id index without the entities that are no longer alive. A Go map
// marks each deleted key with a tombstone and does not shrink: after deleting most of its keys,
// lookups, inserts and deletes probe long runs of tombstones (deleting 100,000 of 100,000 entities
// key by key and restoring them cost about 3 µs per entity in map probes).
func (d *core) pruneIndex() {
	if d.world.Len() == 0 { // all gone (a delete of all): no key to look at, and the room kept for an undo
		clear(d.byID())
		d.structure++
		return
	}
	live := make(map[uint64]ecs.Entity, d.world.Len())
	for id, e := range d.byID() {
		if d.world.Alive(e) {
			live[id] = e
		}
	}
	d.setIndex(live, d.world.Len())
	d.structure++
}

// holdersOf captures the components of entities outside set that refer to entities of set.
func (d *core) holdersOf(set []ecs.Entity) []heldRef {
	types := d.refTypes()
	if len(types) == 0 {
		return nil
	}
	in := make(map[ecs.Entity]bool, len(set))
	for _, e := range set {
		in[e] = true
	}
	var out []heldRef
	d.world.EachEntity(func(e ecs.Entity) bool {
		if in[e] {
			return true
		}
		for _, cid := range types {
			v, ok := d.world.Get(e, cid)
			if !ok {
				continue
			}
			rv := reflect.New(reflect.TypeOf(v)).Elem()
			rv.Set(reflect.ValueOf(v))
			hit := false
			walkRefs(rv, func(r *ecs.Entity) { hit = hit || in[*r] })
			if hit {
				out = append(out, heldRef{id: d.idOf(e), val: d.own(cid, v)})
			}
		}
		return true
	})
	return out
}

// restoreTrees spawns the entities of snaps (in preorder, as removeTrees takes them): see
// restorePack.
func (d *core) restoreTrees(snaps []entSnap, order []siblings, holders []heldRef) []ecs.Entity {
	return d.restorePack(d.packSnaps(snaps), order, holders)
}

func (d *core) idsOf(es []ecs.Entity) []uint64 {
	ids := make([]uint64, len(es))
	for i, e := range es {
		ids[i] = d.idOf(e)
	}
	return ids
}

// entitiesOf resolves scene ids, skipping those that name no entity.
func (d *core) entitiesOf(ids []uint64) []ecs.Entity {
	es := make([]ecs.Entity, 0, len(ids))
	for _, id := range ids {
		if e, ok := d.entity(id); ok {
			es = append(es, e)
		}
	}
	return es
}

// setChildren makes want (live entities) exactly the children of p, in that order; p's other
// children become roots (ecs.World.SetChildren: linear in the old and new children).
func (d *core) setChildren(p ecs.Entity, want []ecs.Entity) {
	mustOK(d.world.SetChildren(p, want))
}

// refTypes returns the components of the world whose values hold entity references.
func (d *core) refTypes() []ecs.ComponentID {
	var out []ecs.ComponentID
	for _, cid := range d.world.ComponentIDs() {
		if ct := d.compType(cid); ct.refs && !ct.info.Computed {
			out = append(out, cid)
		}
	}
	return out
}

// mustOK panics on an error that the document's own bookkeeping makes impossible.
func mustOK(err error) {
	if err != nil {
		panic(fmt.Sprintf("editor/doc: internal inconsistency (was the world changed behind the document's back? "+
			"change it only through Document methods, or call Reindex): %v", err))
	}
}
