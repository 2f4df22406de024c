package doc

import (
	"fmt"
	"slices"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// Sibling order. Every entity's scene.SceneID carries an order key; siblings (the children of one
// parent, or the roots) are ordered by key, then id (scene.Compare), and that is what scene files
// store. The document keeps each parent's ecs child list in that order too, so readers can walk
// w.Children without sorting (roots have no list: Roots sorts them). Commands that add or move
// entities give them keys: appended entities the next integer after the last sibling
// (scene.NextOrder), entities dropped between two rows a key between theirs (scene.OrderBetween) —
// so one move changes one entity's key, and two people adding or moving different entities on two
// branches change different lines of the file.

// applyPlace gives each moved entity its parent and key (after, or before when forward is false),
// then sorts the child list of every parent that changed.
func (d *core) applyPlace(ms []placeMove, forward bool) error {
	w := d.world
	es := make([]ecs.Entity, len(ms))
	parents := make([]ecs.Entity, len(ms))
	for i, m := range ms {
		e, ok := d.entity(m.id)
		if !ok {
			return fmt.Errorf("%w: scene id %d", ErrNoEntity, m.id)
		}
		es[i] = e
		to := m.to
		if !forward {
			to = m.from
		}
		if to != 0 {
			p, ok := d.entity(to)
			if !ok {
				return fmt.Errorf("%w: scene id %d", ErrNoEntity, to)
			}
			parents[i] = p
		}
	}
	// Detach from the old parents: one rewrite per parent (see setChildren).
	leaving := make(map[ecs.Entity]bool)
	var olds []ecs.Entity
	isOld := make(map[ecs.Entity]bool)
	for i, e := range es {
		if p := w.Parent(e); !p.IsZero() && p != parents[i] {
			leaving[e] = true
			if !isOld[p] {
				isOld[p] = true
				olds = append(olds, p)
			}
		}
	}
	for _, p := range olds {
		d.setChildren(p, slices.DeleteFunc(w.Children(p), func(c ecs.Entity) bool { return leaving[c] }))
	}
	var news []ecs.Entity
	isNew := make(map[ecs.Entity]bool)
	for i, e := range es {
		k := ms[i].toKey
		if !forward {
			k = ms[i].fromKey
		}
		d.sids.Mut(e).Order = k
		p := parents[i]
		if p.IsZero() {
			continue
		}
		if w.Parent(e) != p {
			if err := w.SetParent(e, p); err != nil {
				return err
			}
		}
		if !isNew[p] {
			isNew[p] = true
			news = append(news, p)
		}
	}
	for _, p := range news {
		d.sortChildren(p)
	}
	return nil
}

// sortChildren puts p's child list in sibling order (if it is not already).
func (d *core) sortChildren(p ecs.Entity) {
	cs := d.world.Children(p)
	sorted := slices.Clone(cs)
	scene.SortSiblings(d.world, sorted)
	if !slices.Equal(cs, sorted) {
		d.setChildren(p, sorted)
	}
}

// keyOf returns e's sibling order key.
func (d *core) keyOf(e ecs.Entity) float64 {
	v, _ := d.sids.TryGet(e)
	return v.Order
}

// siblingsOf returns the children of parent (the roots if zero) in sibling order.
func (d *core) siblingsOf(parent ecs.Entity) []ecs.Entity {
	if parent.IsZero() {
		return scene.Roots(d.world)
	}
	return d.world.Children(parent) // kept in sibling order
}

// Roots returns the top-level entities of the world shown (see World) in sibling order (the order
// the hierarchy shows them in).
func (d *Document) Roots() []ecs.Entity {
	w := d.World()
	if r := d.roots; r != nil {
		d.roots = nil // handed out once: the caller owns the list
		if !r.pending && r.w == w && r.shape == w.ShapeVersion() && r.version == d.version {
			if r.unsorted {
				scene.SortSiblings(w, r.es)
			}
			return r.es
		}
	}
	return scene.Roots(w)
}

// loadedRoots are the roots of a world as its load (in sibling order) or a step that brought back the whole world
// (unsorted) listed them, while the world is as then (the same shape, no edit since): at a million roots, the
// passes over every entity the first Roots would make in the frame that first shows the scene, and for a load the
// sort. A step's list is pending until the history stamps it with the document's version after the step
// (stampRoots).
type loadedRoots struct {
	w              *ecs.World
	shape, version uint64
	es             []ecs.Entity
	unsorted       bool
	pending        bool
}

// hintRoots keeps es, the entities of p that a step brought back, as the next Roots when they are the whole world
// and all of them roots (a flat scene deleted whole and brought back).
func (d *core) hintRoots(p *pack, es []ecs.Entity) {
	w := d.world
	if w.Len() != len(es) || len(es) < 2 || slices.ContainsFunc(p.parents, func(id uint64) bool { return id != 0 }) {
		return
	}
	d.roots = &loadedRoots{w: w, shape: w.ShapeVersion(), es: es, unsorted: true, pending: true}
}

// stampRoots gives a list hintRoots kept the document's version after the step that made it.
func (d *core) stampRoots() {
	if r := d.roots; r != nil && r.pending {
		r.version, r.pending = d.version, false
	}
}

// dropPendingRoots forgets a list hintRoots kept that no history step stamped (a step run other than by undo or
// redo), before a step whose list stampRoots stamps.
func (d *core) dropPendingRoots() {
	if r := d.roots; r != nil && r.pending {
		d.roots = nil
	}
}

// appendKeys returns a function that hands out order keys placing entities after the current
// children of parent, one after the other.
func (d *core) appendKeys(parent ecs.Entity) func() float64 {
	next := scene.NextOrder(d.world, parent)
	return func() float64 {
		k := next
		next = scene.After(next, true)
		return k
	}
}

// MoveNextTo moves es (with their descendants) to sit right before anchor (after == false) or right
// after it among anchor's siblings, in the order the hierarchy shows them, as one undoable step:
// dragging rows onto the upper or lower edge of a row. Entities that come from another parent are
// reparented too, keeping their place in the world if keepWorld is set (as a hierarchy drag does).
// Only the moved entities get new order keys, unless the keys around the place are too close to fit
// new ones (then the siblings are renumbered 1, 2, … in the same step). Moving an entity next to
// itself or its own descendant is refused with ErrCycle; a move that changes nothing is no step.
// While playing it changes the play world instead, as the user's change (see Play), and makes no step.
func (d *Document) MoveNextTo(anchor ecs.Entity, after, keepWorld bool, es ...ecs.Entity) error {
	if d.play.Playing() {
		return d.play.run(func(s *scope) error { return s.moveNextTo(anchor, after, keepWorld, es) })
	}
	return d.moveNextTo(anchor, after, keepWorld, es)
}

func (d *scope) moveNextTo(anchor ecs.Entity, after, keepWorld bool, es []ecs.Entity) error {
	if err := d.hist.begin(); err != nil {
		return err
	}
	w := d.world
	aid := d.idFor(anchor)
	if aid == 0 {
		return fmt.Errorf("move next to %v: %w", anchor, ErrNoEntity)
	}
	if _, err := d.resolve(es); err != nil {
		return err
	}
	move := d.topLevel(es)
	if len(move) == 0 {
		return nil
	}
	if err := d.refuseParts("move", move); err != nil {
		return err
	}
	parent := w.Parent(anchor)
	inMove := make(map[ecs.Entity]bool, len(move))
	for _, e := range move {
		inMove[e] = true
	}
	for p := anchor; !p.IsZero(); p = w.Parent(p) {
		if inMove[p] {
			if p == anchor && len(move) == 1 {
				return nil // dropped next to itself
			}
			return fmt.Errorf("move %s next to %s: %w", d.label(move[0]), d.label(anchor), ErrCycle)
		}
	}
	d.sortByHierarchy(move)
	moving := make(map[ecs.Entity]bool, len(move))
	for _, e := range move {
		moving[e] = true
	}
	cur := d.siblingsOf(parent)
	rest := slices.DeleteFunc(slices.Clone(cur), func(e ecs.Entity) bool { return moving[e] })
	at := slices.Index(rest, anchor)
	if after {
		at++
	}
	final := slices.Concat(rest[:at], move, rest[at:])
	unchanged := slices.Equal(final, cur)
	for _, e := range move {
		if w.Parent(e) != parent {
			unchanged = false
		}
	}
	if unchanged {
		return nil
	}
	pid := d.idOf(parent)
	var ms []placeMove
	lo, hasLo := 0.0, at > 0
	if hasLo {
		lo = d.keyOf(rest[at-1])
	}
	hi, hasHi := 0.0, at < len(rest)
	if hasHi {
		hi = d.keyOf(rest[at])
	}
	keys, ok := scene.OrderBetween(lo, hi, hasLo, hasHi, len(move))
	if ok && hasLo && hasHi && lo == hi {
		ok = false
	}
	if ok {
		for i, e := range move {
			ms = append(ms, placeMove{id: d.idOf(e), from: d.idOf(w.Parent(e)), to: pid, fromKey: d.keyOf(e), toKey: keys[i]})
		}
	} else {
		// No room between the neighbours' keys: renumber all the siblings 1, 2, … in their new order.
		for i, e := range final {
			k := float64(i + 1)
			if !moving[e] && k == d.keyOf(e) {
				continue
			}
			ms = append(ms, placeMove{id: d.idOf(e), from: d.idOf(w.Parent(e)), to: pid, fromKey: d.keyOf(e), toKey: k})
		}
	}
	var reparented []ecs.Entity
	for _, e := range move {
		if w.Parent(e) != parent {
			reparented = append(reparented, e)
		}
	}
	cmd := &placeCmd{name: "Reorder", moves: ms}
	if len(reparented) > 0 {
		cmd.name = "Reparent"
	}
	if !keepWorld {
		reparented = nil
	}
	return d.runPlace(cmd, parent, reparented)
}

// runPlace does cmd as one step; the entities of keepWorld (which move under parent) also get the
// local Transforms that keep them where they are in the world, in the same step.
func (d *scope) runPlace(cmd *placeCmd, parent ecs.Entity, keepWorld []ecs.Entity) error {
	var c command = cmd
	if len(keepWorld) > 0 {
		if ch := d.keepWorld(parent, keepWorld); len(ch) > 0 {
			c = &multiCmd{name: cmd.label(), cmds: []command{cmd, &compCmd{name: cmd.label(), changes: ch}}}
		}
	}
	selBefore := d.sel.ids()
	if err := c.apply(d.core); err != nil {
		return err
	}
	d.hist.push(c, selBefore)
	return nil
}

// sortByHierarchy sorts es (entities none of which is an ancestor of another) into the order the
// hierarchy shows them in: depth first, siblings in order.
func (d *core) sortByHierarchy(es []ecs.Entity) {
	if len(es) < 2 {
		return
	}
	// Deep entities: one walk of the whole hierarchy ranks them all, in time linear in the world
	// rather than in the sum of their depths.
	total := 0 // sum of the depths, up to the size of the world
	for _, e := range es {
		for p := e; !p.IsZero() && total <= d.world.Len(); p = d.world.Parent(p) {
			total++
		}
	}
	if total > d.world.Len() {
		rank := make(map[ecs.Entity]int, len(es))
		for _, e := range es {
			rank[e] = -1
		}
		for i, e := range preorder(d.world, scene.Roots(d.world)) {
			if _, ok := rank[e]; ok {
				rank[e] = i
			}
		}
		slices.SortStableFunc(es, func(a, b ecs.Entity) int { return rank[a] - rank[b] })
		return
	}
	// path returns the sibling keys from the root down to e.
	path := func(e ecs.Entity) []scene.SceneID {
		var p []scene.SceneID
		for ; !e.IsZero(); e = d.world.Parent(e) {
			v, _ := d.sids.TryGet(e)
			p = append(p, v)
		}
		slices.Reverse(p)
		return p
	}
	paths := make(map[ecs.Entity][]scene.SceneID, len(es))
	for _, e := range es {
		paths[e] = path(e)
	}
	slices.SortStableFunc(es, func(a, b ecs.Entity) int {
		pa, pb := paths[a], paths[b]
		for i := 0; i < len(pa) && i < len(pb); i++ {
			if c := scene.Compare(pa[i], pb[i]); c != 0 {
				return c
			}
		}
		return len(pa) - len(pb)
	})
}
