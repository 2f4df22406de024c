package doc

import (
	"math"
	"reflect"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

// keepWorld returns the Transform changes that keep the world matrices of es (moving under
// parent) as they are now.
func (d *core) keepWorld(parent ecs.Entity, es []ecs.Entity) []compChange {
	w := d.world
	tr, _ := ecs.ComponentIDOf[ecs.Transform](w)
	inv := mgl32.Ident4()
	if !parent.IsZero() {
		inv = w.WorldMatrix(parent).Inv()
	}
	var out []compChange
	for _, e := range es {
		cur := d.state(e, tr)
		if !cur.has {
			continue
		}
		t, ok := ecs.TransformFromMatrix(inv.Mul4(w.WorldMatrix(e)), cur.val.v.(ecs.Transform).Rotation)
		if !ok || !finite32(t) {
			continue
		}
		after := compState{has: true, val: d.own(tr, t)}
		if !sameVal(cur.val, after.val) {
			out = append(out, compChange{id: d.idOf(e), cid: tr, before: cur, after: after})
		}
	}
	return out
}

func finite32(t ecs.Transform) bool {
	for _, v := range []mgl32.Vec3{t.Position, t.Rotation, t.Scale} {
		for _, f := range v {
			if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
				return false
			}
		}
	}
	return true
}

// DragKind is what a transform drag (a gizmo) changes.
type DragKind uint8

const (
	// DragMove changes positions only.
	DragMove DragKind = iota
	// DragRotate changes rotations, and the positions of entities turning around another pivot.
	DragRotate
	// DragScale changes scales, and the positions of entities scaled around another pivot.
	DragScale
)

// transformDrag is the state of a drag opened by BeginTransformDrag.
type transformDrag struct {
	kind   DragKind
	cid    ecs.ComponentID
	ents   []ecs.Entity
	start  []ecs.Transform // local Transforms when the drag began
	world  []mgl32.Mat4    // world matrices when the drag began
	parent []mgl32.Mat4    // inverse world matrices of the parents (identity for roots)
	vals   []any
}

// BeginTransformDrag opens a transaction like BeginEdit (close it with EndEdit or CancelEdit) for a
// drag that moves, turns or scales es in world space (a gizmo): [Document.DragWorld] then sets
// their Transforms. Only the entities of es that have a Transform and no ancestor in es take part
// (a selected child follows its selected parent). While playing the drag moves the entities of
// the play world (as SetComponents does then) and records no step; CancelEdit puts them back.
func (d *Document) BeginTransformDrag(label string, kind DragKind, es []ecs.Entity) {
	w := d.World()
	switch {
	case !d.play.Playing():
		d.BeginEdit(label)
	case d.hist.edit != nil:
		d.hist.edit.depth++
	default:
		d.hist.edit = &transaction{name: label, depth: 1}
	}
	g := &transformDrag{kind: kind}
	g.cid, _ = ecs.ComponentIDOf[ecs.Transform](w)
	c := d.shown() // while playing, the play world's parents and entities (those created since too)
	for _, e := range c.topLevel(es) {
		v, ok := w.Get(e, g.cid)
		if !ok || c.idOf(e) == 0 {
			continue
		}
		inv := mgl32.Ident4()
		if p := w.Parent(e); !p.IsZero() {
			inv = w.WorldMatrix(p).Inv()
		}
		g.ents = append(g.ents, e)
		g.start = append(g.start, v.(ecs.Transform))
		g.world = append(g.world, w.WorldMatrix(e))
		g.parent = append(g.parent, inv)
	}
	d.hist.edit.drag = g
}

// DragWorld makes the world matrix of every entity of the open drag (BeginTransformDrag) delta ×
// its world matrix when the drag began, written as its local Transform; the viewport shows it at
// once and EndEdit makes the whole drag one step. delta is the change of the dragged pivot's world
// matrix (its matrix now × the inverse of its matrix when the drag began).
//
// Only what the drag's kind changes is written: a move changes positions and keeps rotations and
// scales exactly as they were, a turn keeps scales and a scale keeps rotations. A component that
// the delta moves by no more than float rounding keeps its exact value, and no value becomes -0,
// so the saved file changes only where the user changed the scene. Without an open drag it does
// nothing.
func (d *Document) DragWorld(delta mgl32.Mat4) error {
	if d.hist.edit == nil || d.hist.edit.drag == nil {
		return nil
	}
	g := d.hist.edit.drag
	g.vals = g.vals[:0]
	for i := range g.ents {
		t0 := g.start[i]
		t := t0
		switch g.kind {
		case DragMove:
			from := g.world[i].Col(3)
			to := delta.Mul4x1(from)
			// The displacement in the parent's space; rounding noise across the axes the drag did
			// not move is dropped.
			dl := g.parent[i].Mul4x1(to.Sub(from)).Vec3()
			noise := 1e-6 * dl.Len()
			for a := range 3 {
				if math.Abs(float64(dl[a])) > float64(noise) {
					t.Position[a] = t0.Position[a] + dl[a] + 0
				}
			}
		default:
			nt, ok := ecs.TransformFromMatrix(g.parent[i].Mul4(delta.Mul4(g.world[i])), t0.Rotation)
			if !ok {
				continue
			}
			t.Position = keepNear(nt.Position, t0.Position, 1e-5)
			if g.kind == DragRotate {
				t.Rotation = keepNear(nt.Rotation, t0.Rotation, 1e-4)
			} else {
				t.Scale = keepNear(nt.Scale, t0.Scale, 1e-5)
			}
		}
		if !finite32(t) {
			t = t0
		}
		if d.play.Playing() {
			t = keepUndragged(g.kind, t, d.play.world, g.ents[i], g.cid)
		}
		g.vals = append(g.vals, t)
	}
	if len(g.ents) == 0 {
		return nil
	}
	return d.SetComponents(g.ents, g.cid, g.vals)
}

// keepUndragged returns t with what a drag of kind does not change taken from e's Transform in the play world
// now: the systems may be changing it during the drag (a spin turns a cube being moved), and the drag must not
// put it back.
func keepUndragged(kind DragKind, t ecs.Transform, w *ecs.World, e ecs.Entity, cid ecs.ComponentID) ecs.Transform {
	v, ok := w.Get(e, cid)
	if !ok {
		return t
	}
	cur := v.(ecs.Transform)
	switch kind {
	case DragMove:
		t.Rotation, t.Scale = cur.Rotation, cur.Scale
	case DragRotate:
		t.Scale = cur.Scale
	case DragScale:
		t.Rotation = cur.Rotation
	}
	return t
}

// keepNear returns v, except that each component within tol·max(1, |old|) of old's is old's, bit
// for bit (float rounding is not a change).
func keepNear(v, old mgl32.Vec3, tol float64) mgl32.Vec3 {
	for a := range 3 {
		if math.Abs(float64(v[a])-float64(old[a])) <= tol*math.Max(1, math.Abs(float64(old[a]))) {
			v[a] = old[a]
		} else {
			v[a] += 0
		}
	}
	return v
}

// positiveZero returns v with every -0 float inside it replaced by 0 (a copy if there is one): the
// inspector and files would show it as "-0", which no edit should produce.
func positiveZero(v any) any {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || !hasNegZero(rv) {
		return v
	}
	cp := reflect.New(rv.Type()).Elem()
	cp.Set(ecs.DeepCopy(rv))
	clearNegZero(cp)
	return cp.Interface()
}

func hasNegZero(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		return f == 0 && math.Signbit(f)
	case reflect.Struct:
		for i := range v.NumField() {
			if hasNegZero(v.Field(i)) {
				return true
			}
		}
	case reflect.Array, reflect.Slice:
		switch v.Type().Elem().Kind() {
		case reflect.Float32, reflect.Float64, reflect.Struct, reflect.Array, reflect.Slice, reflect.Pointer:
			for i := range v.Len() {
				if hasNegZero(v.Index(i)) {
					return true
				}
			}
		}
	case reflect.Pointer:
		return !v.IsNil() && hasNegZero(v.Elem())
	}
	return false
}

func clearNegZero(v reflect.Value) {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if v.CanSet() && v.Float() == 0 {
			v.SetFloat(0)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			clearNegZero(v.Field(i))
		}
	case reflect.Array, reflect.Slice:
		for i := range v.Len() {
			clearNegZero(v.Index(i))
		}
	case reflect.Pointer:
		if !v.IsNil() {
			clearNegZero(v.Elem())
		}
	}
}
