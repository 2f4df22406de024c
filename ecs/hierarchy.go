package ecs

import (
	"errors"
	"fmt"
	"slices"
)

// ErrCycle is returned by SetParent when the new parent is the child itself or one of its
// descendants.
var ErrCycle = errors.New("parent would create a cycle")

// hierarchy stores the parent/children relation by entity index.
type hierarchy struct {
	active   bool
	parent   []Entity   // by entity index; zero for roots
	children [][]Entity // by entity index, in the order they were attached
	dirty    []Entity   // entities whose parent changed since the last propagation
}

func (h *hierarchy) grow(n int) {
	if len(h.parent) < n {
		h.parent = append(h.parent, make([]Entity, n-len(h.parent))...)
		h.children = append(h.children, make([][]Entity, n-len(h.children))...)
	}
}

// SetParent makes child a child of parent (appended after its existing children), or a root if
// parent is the zero Entity. It refuses (with ErrCycle) a parent that is child itself or one of its
// descendants, and returns ErrDeadEntity for dead handles. The child's world matrix follows its new
// parent at the next propagation.
func (w *World) SetParent(child, parent Entity) error {
	if !w.Alive(child) {
		return fmt.Errorf("ecs: set parent of %v: %w", child, ErrDeadEntity)
	}
	if !parent.IsZero() && !w.Alive(parent) {
		return fmt.Errorf("ecs: set parent of %v to %v: %w", child, parent, ErrDeadEntity)
	}
	h := &w.hier
	h.active = true
	h.grow(len(w.records))
	for p := parent; !p.IsZero(); p = h.parent[p.index] {
		if p == child {
			return fmt.Errorf("ecs: set parent of %v to %v: %w", child, parent, ErrCycle)
		}
	}
	old := h.parent[child.index]
	if old == parent {
		return nil
	}
	if !old.IsZero() {
		h.detach(old, child)
	}
	h.parent[child.index] = parent
	if !parent.IsZero() {
		h.children[parent.index] = append(h.children[parent.index], child)
	}
	h.dirty = append(h.dirty, child)
	return nil
}

func (h *hierarchy) detach(parent, child Entity) {
	cs := h.children[parent.index]
	if i := slices.Index(cs, child); i >= 0 {
		h.children[parent.index] = slices.Delete(cs, i, i+1)
	}
}

// Parent returns e's parent, or the zero Entity for roots and dead entities.
func (w *World) Parent(e Entity) Entity {
	if !w.Alive(e) || int(e.index) >= len(w.hier.parent) {
		return Entity{}
	}
	return w.hier.parent[e.index]
}

// Children returns a copy of e's children in the order they were attached (nil if none).
func (w *World) Children(e Entity) []Entity {
	if !w.Alive(e) || int(e.index) >= len(w.hier.children) {
		return nil
	}
	return slices.Clone(w.hier.children[e.index])
}

// hierDespawn unlinks e from the hierarchy: its children become roots.
func (w *World) hierDespawn(e Entity) {
	h := &w.hier
	if int(e.index) >= len(h.parent) {
		return
	}
	if p := h.parent[e.index]; !p.IsZero() {
		h.detach(p, e)
		h.parent[e.index] = Entity{}
	}
	for _, c := range h.children[e.index] {
		h.parent[c.index] = Entity{}
		h.dirty = append(h.dirty, c)
	}
	h.children[e.index] = nil
}

// DespawnRecursive despawns e and all its descendants and returns how many entities were removed
// (0 if e is dead).
func (w *World) DespawnRecursive(e Entity) int {
	if !w.Alive(e) {
		return 0
	}
	w.checkStructural("despawn entities")
	var stack []Entity
	if int(e.index) < len(w.hier.children) {
		stack = append(stack, w.hier.children[e.index]...)
	}
	n := 0
	if w.Despawn(e) {
		n++
	}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if int(c.index) < len(w.hier.children) {
			stack = append(stack, w.hier.children[c.index]...)
		}
		if w.Despawn(c) {
			n++
		}
	}
	return n
}
