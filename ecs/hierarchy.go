package ecs

import (
	"errors"
	"fmt"
)

// ErrCycle is returned by SetParent when the new parent is the child itself or one of its
// descendants.
var ErrCycle = errors.New("parent would create a cycle")

// hierarchy stores the parent/children relation by entity index as intrusive doubly linked
// sibling lists, so that attaching, detaching and moving a child are O(1) whatever the shape of
// the tree (a million-deep chain, a million siblings). Links hold entity indices (0 = none); a
// linked index always belongs to a live entity (despawning unlinks), so its handle is the index
// plus the slot's current generation.
type hierarchy struct {
	active bool
	nodes  []hnode  // by entity index
	dirty  []Entity // entities whose parent changed since the last propagation
	// shape counts spawns, despawns and parent changes (see World.ShapeVersion).
	shape uint64
	// log: the entity index of each change of shape after shape logFrom, in order (see World.ShapeChanges); full,
	// it drops its older half, so that it always holds the last maxShapeLog/2 changes at least.
	log     []uint32
	logFrom uint64

	// Scratch of the checks of SetParents and SetChildren and of the depths of propagation.
	val    marks // a value per index: a pending parent, or a depth
	onPath marks // cycle walks: on the current walk
	done   marks // cycle walks: known to reach a root
	path   []uint32
	// steps counts the links followed by checks and traversals, so tests can assert that
	// hierarchy operations stay linear whatever the shape of the tree.
	steps uint64
}

// marks is a set of indices (with an optional value each) that empties in O(1): an index is in
// the set when its stamp is the current one.
type marks struct {
	stamp []uint32
	value []uint32
	cur   uint32
}

// reset empties the set and makes room for indices below n.
func (m *marks) reset(n int) {
	if len(m.stamp) < n {
		m.stamp = append(m.stamp, make([]uint32, n-len(m.stamp))...)
	}
	m.cur++
	if m.cur == 0 { // wrapped: old stamps could match again
		clear(m.stamp)
		m.cur = 1
	}
}

func (m *marks) has(i uint32) bool { return m.stamp[i] == m.cur }
func (m *marks) add(i uint32)      { m.stamp[i] = m.cur }

// set adds i with value v.
func (m *marks) set(i, v uint32) {
	if len(m.value) < len(m.stamp) {
		m.value = append(m.value, make([]uint32, len(m.stamp)-len(m.value))...)
	}
	m.stamp[i], m.value[i] = m.cur, v
}

// get returns i's value and whether i is in the set.
func (m *marks) get(i uint32) (uint32, bool) {
	if m.stamp[i] != m.cur {
		return 0, false
	}
	return m.value[i], true
}

// hnode is one entity's place in the hierarchy.
type hnode struct {
	parent      uint32
	first, last uint32 // children
	next, prev  uint32 // siblings
	count       uint32 // number of children
}

// grow makes nodes at least n long (n is the world's IndexCap: see there).
func (h *hierarchy) grow(n int) {
	if len(h.nodes) < n {
		h.nodes = append(h.nodes, make([]hnode, n-len(h.nodes))...)
	}
}

// node returns e's node (the zero node for indices never linked).
func (h *hierarchy) node(i uint32) hnode {
	if int(i) < len(h.nodes) {
		return h.nodes[i]
	}
	return hnode{}
}

// handle returns the live entity at index i (0 for none).
func (w *World) handle(i uint32) Entity {
	if i == 0 {
		return Entity{}
	}
	return Entity{index: i, gen: w.records[i].gen}
}

// unlink detaches c from its parent's child list (c must have a parent).
func (h *hierarchy) unlink(c uint32) {
	n := &h.nodes[c]
	p := &h.nodes[n.parent]
	if n.prev != 0 {
		h.nodes[n.prev].next = n.next
	} else {
		p.first = n.next
	}
	if n.next != 0 {
		h.nodes[n.next].prev = n.prev
	} else {
		p.last = n.prev
	}
	p.count--
	n.parent, n.next, n.prev = 0, 0, 0
	h.changed(c)
}

// maxShapeLog is the most changes of shape the hierarchy's log holds (two megabytes); it holds the last half of
// that at least. A reader further behind takes the whole shape again. Had the log started again empty instead, a
// reader only a 100,000-cube spawn behind would take a million roots again whenever the spawn crossed the end.
const maxShapeLog = 1 << 19

// changed counts a change of shape at entity index i and logs it.
func (h *hierarchy) changed(i uint32) {
	h.shape++
	if len(h.log) >= maxShapeLog {
		drop := len(h.log) / 2
		h.log = h.log[:copy(h.log, h.log[drop:])]
		h.logFrom += uint64(drop)
	}
	h.log = append(h.log, i)
}

// link appends c (a root) to p's children.
func (h *hierarchy) link(c, p uint32) {
	n := &h.nodes[c]
	pn := &h.nodes[p]
	n.parent, n.prev, n.next = p, pn.last, 0
	if pn.last != 0 {
		h.nodes[pn.last].next = c
	} else {
		pn.first = c
	}
	pn.last = c
	pn.count++
	h.changed(c)
}

// move makes c a child of p (0: a root), appended after p's children, and marks it for
// propagation. No cycle check.
func (w *World) move(c, p uint32) {
	h := &w.hier
	if h.nodes[c].parent != 0 {
		h.unlink(c)
	}
	if p != 0 {
		h.link(c, p)
	}
	h.dirty = append(h.dirty, w.handle(c))
}

// ancestorOf reports whether a is b or one of b's ancestors. It walks up from b and, in step,
// through a's subtree, and stops when either ends, so its cost is the smaller of b's depth and
// the size of a's subtree: O(1) for attaching a leaf or attaching under a root.
func (h *hierarchy) ancestorOf(a, b uint32) bool {
	if a == b {
		return true
	}
	if h.nodes[a].first == 0 {
		return false // a has no descendants
	}
	up, down := b, a
	for {
		h.steps++
		up = h.nodes[up].parent
		if up == a {
			return true
		}
		if up == 0 {
			return false
		}
		down = h.nextInSubtree(down, a)
		if down == b {
			return true
		}
		if down == 0 {
			return false
		}
	}
}

// nextInSubtree returns the node after x in a preorder walk of root's subtree, or 0 at its end.
func (h *hierarchy) nextInSubtree(x, root uint32) uint32 {
	if f := h.nodes[x].first; f != 0 {
		return f
	}
	for x != root {
		h.steps++
		if s := h.nodes[x].next; s != 0 {
			return s
		}
		x = h.nodes[x].parent
	}
	return 0
}

// SetParent makes child a child of parent (appended after its existing children), or a root if
// parent is the zero Entity. It refuses (with ErrCycle) a parent that is child itself or one of its
// descendants, and returns ErrDeadEntity for dead handles. The child's world matrix follows its new
// parent at the next propagation. A child that already has this parent stays where it is.
//
// The cycle check costs the smaller of the parent's depth and the size of the child's subtree, so
// building a tree top-down or bottom-up is linear; for many links at once use [World.SetParents],
// which is linear in any order.
func (w *World) SetParent(child, parent Entity) error {
	if err := w.checkLink(child, parent); err != nil {
		return err
	}
	w.beforeWrite()
	h := &w.hier
	h.active = true
	h.grow(w.IndexCap())
	if h.nodes[child.index].parent == parent.index {
		return nil
	}
	if !parent.IsZero() && h.ancestorOf(child.index, parent.index) {
		return fmt.Errorf("ecs: set parent of %v to %v: %w", child, parent, ErrCycle)
	}
	w.move(child.index, parent.index)
	return nil
}

func (w *World) checkLink(child, parent Entity) error {
	if !w.Alive(child) {
		return fmt.Errorf("ecs: set parent of %v: %w", child, ErrDeadEntity)
	}
	if !parent.IsZero() && !w.Alive(parent) {
		return fmt.Errorf("ecs: set parent of %v to %v: %w", child, parent, ErrDeadEntity)
	}
	return nil
}

// ParentLink is one child → parent assignment for [World.SetParents].
type ParentLink struct {
	Child, Parent Entity // a zero Parent makes Child a root
}

// SetParents applies many links as SetParent would one after the other (children are appended
// in the order given; a child listed twice ends where its last link puts it), but checks them
// as a whole first: if a handle is dead or the links would make a cycle, it returns the error
// (ErrDeadEntity, ErrCycle) and changes nothing. Its cost is linear in the number of links plus
// the ancestors they reach, whatever their order and the shape of the tree: loaders build whole
// hierarchies with it.
func (w *World) SetParents(links []ParentLink) error {
	for _, l := range links {
		if err := w.checkLink(l.Child, l.Parent); err != nil {
			return err
		}
	}
	if len(links) == 0 {
		return nil
	}
	w.beforeWrite()
	h := &w.hier
	h.active = true
	h.grow(w.IndexCap())
	// The parent each linked child will have once every link is applied.
	h.val.reset(len(w.records))
	for _, l := range links {
		h.val.set(l.Child.index, l.Parent.index)
	}
	vparent := func(i uint32) uint32 {
		if p, ok := h.val.get(i); ok {
			return p
		}
		return h.nodes[i].parent
	}
	// A cycle in the result goes through a linked child (the current tree has none): walk up
	// from each, and stop at a root or at a node an earlier walk went through.
	h.onPath.reset(len(w.records))
	h.done.reset(len(w.records))
	for _, l := range links {
		path := h.path[:0]
		x := l.Child.index
		for x != 0 && !h.done.has(x) && !h.onPath.has(x) {
			h.steps++
			h.onPath.add(x)
			path = append(path, x)
			x = vparent(x)
		}
		cycle := x != 0 && !h.done.has(x)
		for _, i := range path {
			h.done.add(i)
		}
		h.path = path[:0]
		if cycle {
			return fmt.Errorf("ecs: set parent of %v to %v: %w", l.Child, l.Parent, ErrCycle)
		}
	}
	for _, l := range links {
		if h.nodes[l.Child.index].parent != l.Parent.index {
			w.move(l.Child.index, l.Parent.index)
		}
	}
	return nil
}

// SetChildren makes children exactly parent's children, in that order: children that had
// another parent move here (their world matrices follow at the next propagation), parent's other
// children become roots, and children that were already parent's are only reordered. parent must be alive; children must be alive and distinct. It
// refuses (ErrCycle) a child that is parent or one of its ancestors; on error nothing changes. Its
// cost is linear in the old and new children, plus parent's depth when a child comes from
// elsewhere (a reorder costs nothing more).
func (w *World) SetChildren(parent Entity, children []Entity) error {
	if !w.Alive(parent) {
		return fmt.Errorf("ecs: set children of %v: %w", parent, ErrDeadEntity)
	}
	w.beforeWrite()
	h := &w.hier
	h.active = true
	h.grow(w.IndexCap())
	h.val.reset(len(w.records)) // the new children
	moving := false             // some child comes from elsewhere
	for _, c := range children {
		if !w.Alive(c) {
			return fmt.Errorf("ecs: set children of %v: child %v: %w", parent, c, ErrDeadEntity)
		}
		if h.val.has(c.index) {
			return fmt.Errorf("ecs: set children of %v: %v is listed twice", parent, c)
		}
		h.val.add(c.index)
		moving = moving || h.nodes[c.index].parent != parent.index
	}
	for a := parent.index; moving && a != 0; a = h.nodes[a].parent {
		h.steps++
		if h.val.has(a) {
			return fmt.Errorf("ecs: set children of %v to include %v: %w", parent, w.handle(a), ErrCycle)
		}
	}
	p := parent.index
	for c := h.nodes[p].first; c != 0; {
		h.steps++
		next := h.nodes[c].next
		if !h.val.has(c) {
			w.move(c, 0)
		}
		c = next
	}
	// Relink in the new order; a child that already was here keeps its propagation state.
	for _, c := range children {
		h.steps++
		if h.nodes[c.index].parent == p {
			h.unlink(c.index)
			h.link(c.index, p)
		} else {
			w.move(c.index, p)
		}
	}
	return nil
}

// Parent returns e's parent, or the zero Entity for roots and dead entities.
func (w *World) Parent(e Entity) Entity {
	if !w.Alive(e) {
		return Entity{}
	}
	return w.handle(w.hier.node(e.index).parent)
}

// Children returns a copy of e's children in order (nil if none). See [World.ChildCount] and
// [World.AppendChildren] to avoid the copy.
func (w *World) Children(e Entity) []Entity {
	if n := w.ChildCount(e); n > 0 {
		return w.AppendChildren(make([]Entity, 0, n), e)
	}
	return nil
}

// AppendChildren appends e's children, in order, to dst and returns it.
func (w *World) AppendChildren(dst []Entity, e Entity) []Entity {
	if !w.Alive(e) {
		return dst
	}
	h := &w.hier
	for c := h.node(e.index).first; c != 0; c = h.nodes[c].next {
		dst = append(dst, w.handle(c))
	}
	return dst
}

// ChildCount returns how many children e has (0 for dead entities). O(1).
func (w *World) ChildCount(e Entity) int {
	if !w.Alive(e) {
		return 0
	}
	return int(w.hier.node(e.index).count)
}

// ShapeVersion returns a count that grows whenever an entity is spawned or despawned or a parent changes: while
// it stays the same, the roots of w and every entity's children are the same entities (a reader that caches them
// compares it).
func (w *World) ShapeVersion() uint64 { return w.hier.shape }

// ShapeChanges calls fn for each entity that the changes of shape since version since (a ShapeVersion) touched, as
// many times as they did, in order: spawned, despawned, its parent set or removed, or made a root by its parent's
// despawn. fn gets the handle of the entity now in that slot (not alive if the slot is free). It returns false,
// calling nothing, when w no longer holds the changes since then: too many of them, or since is not a version of w;
// a reader then takes the shape whole again. A reader that keeps the roots (or another view of the shape) follows
// them at a cost of the changes, not of the world.
func (w *World) ShapeChanges(since uint64, fn func(Entity)) bool {
	h := &w.hier
	if since < h.logFrom || since > h.shape {
		return false
	}
	for _, i := range h.log[since-h.logFrom:] {
		fn(Entity{index: i, gen: w.records[i].gen})
	}
	return true
}

// hierDespawn unlinks e from the hierarchy: its children become roots.
func (w *World) hierDespawn(e Entity) {
	h := &w.hier
	if int(e.index) >= len(h.nodes) {
		return
	}
	if h.nodes[e.index].parent != 0 {
		h.unlink(e.index)
	}
	for c := h.nodes[e.index].first; c != 0; {
		n := &h.nodes[c]
		next := n.next
		n.parent, n.prev, n.next = 0, 0, 0
		h.dirty = append(h.dirty, w.handle(c))
		h.changed(c)
		c = next
	}
	n := &h.nodes[e.index]
	n.first, n.last, n.count = 0, 0, 0
}

// DespawnRecursive despawns e and all its descendants and returns how many entities were removed
// (0 if e is dead). Its cost is linear in the number removed.
func (w *World) DespawnRecursive(e Entity) int {
	if !w.Alive(e) {
		return 0
	}
	w.checkStructural("despawn entities")
	h := &w.hier
	if int(e.index) >= len(h.nodes) || h.nodes[e.index].first == 0 {
		w.Despawn(e)
		return 1
	}
	// Preorder, then despawn in reverse: every entity is a leaf when it goes, so nothing is
	// re-parented on the way.
	order := []uint32{e.index}
	for x := h.nextInSubtree(e.index, e.index); x != 0; x = h.nextInSubtree(x, e.index) {
		order = append(order, x)
	}
	for i := len(order) - 1; i >= 0; i-- {
		w.Despawn(w.handle(order[i]))
	}
	return len(order)
}
