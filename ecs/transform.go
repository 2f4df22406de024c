package ecs

import (
	"reflect"
	"slices"

	"github.com/go-gl/mathgl/mgl32"
)

// Transform is an entity's local transform relative to its parent (or the world for roots):
// position, Euler rotation in degrees and scale. Its default scale is {1,1,1}.
type Transform struct {
	Position mgl32.Vec3 `json:"position"`
	Rotation mgl32.Vec3 `json:"rotation" voltex:"degrees"`
	Scale    mgl32.Vec3 `json:"scale"`
}

// Default returns the identity transform (scale 1).
func (Transform) Default() Transform { return Transform{Scale: mgl32.Vec3{1, 1, 1}} }

// Matrix returns the local matrix T·Ry·Rx·Rz·S (rotation angles in degrees).
func (t Transform) Matrix() mgl32.Mat4 {
	m := mgl32.Translate3D(t.Position[0], t.Position[1], t.Position[2])
	m = m.Mul4(mgl32.HomogRotate3DY(mgl32.DegToRad(t.Rotation[1])))
	m = m.Mul4(mgl32.HomogRotate3DX(mgl32.DegToRad(t.Rotation[0])))
	m = m.Mul4(mgl32.HomogRotate3DZ(mgl32.DegToRad(t.Rotation[2])))
	return m.Mul4(mgl32.Scale3D(t.Scale[0], t.Scale[1], t.Scale[2]))
}

// GlobalTransform is the world matrix of an entity with a Transform: its parent's world matrix
// times its local matrix. The world adds it together with Transform and keeps it up to date
// (PropagateTransforms, Update); it is Computed: read it, never write it.
type GlobalTransform struct {
	Matrix mgl32.Mat4 `json:"matrix" voltex:"readonly"`
}

// Default returns the identity.
func (GlobalTransform) Default() GlobalTransform { return GlobalTransform{Matrix: mgl32.Ident4()} }

var transformType = reflect.TypeFor[Transform]()

// propagation is the state of transform propagation.
type propagation struct {
	changed *queryState // Changed[Transform], read-only
	stamp   []uint32    // by entity index: pass that last updated it
	pass    uint32
	work    []propItem
	stack   []Entity
}

type propItem struct {
	e     Entity
	depth int
}

// TransformsDirty reports whether some world matrix may be out of date (a Transform or a parent
// link changed since the last propagation).
func (w *World) TransformsDirty() bool {
	p := w.prop.changed
	return len(w.hier.dirty) > 0 || p == nil || w.comps[w.transformID].lastChange > p.lastRun
}

// PropagateTransforms brings every GlobalTransform up to date. It only visits the subtrees whose
// root's Transform or parent changed since the previous propagation (found through the change
// ticks and their page summaries), so a frame where nothing moved costs almost nothing.
func (w *World) PropagateTransforms() {
	if !w.TransformsDirty() || w.frozen {
		return
	}
	p := &w.prop
	if p.changed == nil {
		p.changed = newQueryState(w, []ComponentID{w.transformID},
			[]Term{{termChanged, transformType}, {termRead, transformType}})
	}
	work := p.work[:0]
	var c cursor
	c.begin(p.changed)
	for c.advance() {
		for r := c.start; r < c.end; r++ {
			work = append(work, propItem{e: c.t.entities[r]})
		}
	}
	for _, e := range w.hier.dirty {
		if w.Alive(e) {
			work = append(work, propItem{e: e})
		}
	}
	w.hier.dirty = w.hier.dirty[:0]
	if len(work) == 0 {
		p.work = work
		return
	}
	h := &w.hier
	for i := range work {
		d := 0
		if h.active && int(work[i].e.index) < len(h.parent) {
			for q := h.parent[work[i].e.index]; !q.IsZero(); q = h.parent[q.index] {
				d++
			}
		}
		work[i].depth = d
	}
	slices.SortStableFunc(work, func(a, b propItem) int { return a.depth - b.depth })
	p.pass++
	if len(p.stamp) < len(w.records) {
		p.stamp = append(p.stamp, make([]uint32, len(w.records)-len(p.stamp))...)
	}
	tick := w.tick
	stack := p.stack[:0]
	for _, it := range work {
		if p.stamp[it.e.index] == p.pass {
			continue
		}
		stack = append(stack[:0], it.e)
		for len(stack) > 0 {
			e := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			p.stamp[e.index] = p.pass
			w.updateGlobal(e, tick)
			if h.active && int(e.index) < len(h.children) {
				stack = append(stack, h.children[e.index]...)
			}
		}
	}
	p.work = work[:0]
	p.stack = stack[:0]
}

// updateGlobal recomputes e's GlobalTransform from its parent's and its Transform.
func (w *World) updateGlobal(e Entity, tick uint32) {
	gc, grow, ok := w.locate(e, w.globalID)
	if !ok {
		return
	}
	tc, trow, _ := w.locate(e, w.transformID)
	local := (*Transform)(tc.at(trow)).Matrix()
	m := local
	if h := &w.hier; h.active && int(e.index) < len(h.parent) {
		if par := h.parent[e.index]; !par.IsZero() {
			if pc, prow, ok := w.locate(par, w.globalID); ok {
				m = (*GlobalTransform)(pc.at(prow)).Matrix.Mul4(local)
			}
		}
	}
	(*GlobalTransform)(gc.at(grow)).Matrix = m
	gc.markChanged(grow, tick)
}

// WorldMatrix returns e's world matrix, propagating transforms first if needed (except while
// systems run in parallel). It returns the identity for entities without a Transform or dead ones.
func (w *World) WorldMatrix(e Entity) mgl32.Mat4 {
	if !w.Alive(e) {
		return mgl32.Ident4()
	}
	if w.TransformsDirty() {
		w.PropagateTransforms()
	}
	if c, row, ok := w.locate(e, w.globalID); ok {
		return (*GlobalTransform)(c.at(row)).Matrix
	}
	return mgl32.Ident4()
}
