package editor

import (
	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/AllenDang/cimgui-go/imguizmo"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/viewport"
)

type gizmoOp uint8

const (
	gizmoTranslate gizmoOp = iota
	gizmoRotate
	gizmoScale
)

// gizmoState is the transform gizmo's mode and its drag in progress.
type gizmoState struct {
	op     gizmoOp
	local  bool       // local axes (X toggles)
	active bool       // a drag is in progress: one undoable edit
	from   mgl32.Mat4 // the manipulated matrix when the drag began
	cur    mgl32.Mat4 // the manipulated matrix now
	// applied is the change of the pivot's world matrix last handed to the document (DragWorld): what the drawn
	// list shows; a frame that would hand the same again does not.
	applied mgl32.Mat4
	surface bool      // this move puts the entity on the surface under the mouse (settings.SurfaceSnap)
	snap    snapState // vertex snap (hold V) and the meshes' indexes
}

// mode is the axes the gizmo turns about: the entity's own with local axes, and always for scale.
func (gs *gizmoState) mode() imguizmo.MODE {
	if gs.local || gs.op == gizmoScale {
		return imguizmo.LOCAL
	}
	return imguizmo.WORLD
}

func (o gizmoOp) imguizmo() imguizmo.OPERATION {
	switch o {
	case gizmoRotate:
		return imguizmo.ROTATE
	case gizmoScale:
		return imguizmo.SCALE
	}
	return imguizmo.TRANSLATE
}

func (o gizmoOp) label() string { return [...]string{"Move", "Rotate", "Scale"}[o] }

func (o gizmoOp) dragKind() doc.DragKind {
	return [...]doc.DragKind{doc.DragMove, doc.DragRotate, doc.DragScale}[o]
}

// buildGizmo draws the transform gizmo on the active entity and turns a drag into ONE undoable edit of the
// selected entities' Transforms. It snaps to the steps in the settings while grid snapping is on or Ctrl is held;
// a move snaps the dragged vertex onto another mesh's vertex near the mouse while V is held, and with surface
// snapping on puts the entity on the surface under the mouse. While playing, a drag moves them in the playing
// scene, and Stop offers to keep it. A selection with a locked entity has no gizmo.
func (v *viewportPanel) buildGizmo() {
	active, ok := v.doc.Selection().Active()
	w := v.doc.World()
	tid, hasT := ecs.ComponentIDOf[ecs.Transform](w)
	if !ok || !hasT || !w.Has(active, tid) || v.selectionLocked() {
		v.endGizmo()
		if v.probe != nil {
			v.probe.Gizmo = [2]int{}
		}
		return
	}
	cam := v.doc.Camera()
	imguizmo.SetDrawlistV(imgui.WindowDrawList())
	imguizmo.SetRect(v.area.origin.X, v.area.origin.Y, float32(v.area.w), float32(v.area.h))
	imguizmo.SetOrthographic(cam.Orthographic || cam.Ortho > 0)
	view := cam.View()
	proj := cam.Proj(v.aspect())
	m := w.WorldMatrix(active)
	if v.gz.active {
		m = v.gz.cur // continue from the matrix ImGuizmo gave last frame (no decomposition drift)
	}
	mode := v.gz.mode()
	modes := v.host.snapModes()
	var snap *float32
	var steps [3]float32
	if modes.grid || imgui.CurrentIO().KeyCtrl() {
		s := v.host.snapStep(v.gz.op)
		steps = [3]float32{s, s, s}
		snap = &steps[0]
		if v.gz.op == gizmoTranslate {
			origin := m.Col(3).Vec3()
			if v.gz.active {
				origin = v.gz.from.Col(3).Vec3() // a move snaps to steps from where it began
			}
			v.drawSnapGrid(origin, m.Col(3).Vec3(), s)
		}
	}
	if v.probe != nil {
		if x, y, ok := cam.WorldToPixel(m.Col(3).Vec3(), v.area.w, v.area.h); ok {
			v.probe.Gizmo = [2]int{int(v.area.origin.X + x), int(v.area.origin.Y + y)}
		}
	}
	changed := imguizmo.ManipulateV(&view[0], &proj[0], v.gz.op.imguizmo(), mode, &m[0], nil, snap, nil, nil)
	using := imguizmo.IsUsing()
	if using && !v.gz.active {
		v.beginGizmo(w, active, modes)
	}
	if v.gz.active {
		v.gz.cur = m
		v.dragTo(m, changed, active)
	}
	v.drawSnap()
	if !using && v.gz.active {
		v.endGizmo()
	}
}

// beginGizmo opens the drag's edit; a move that puts the entity on surfaces turns it as well.
func (v *viewportPanel) beginGizmo(w *ecs.World, active ecs.Entity, modes snapModes) {
	v.gz.active = true
	v.gz.from = w.WorldMatrix(active)
	v.gz.applied = mgl32.Ident4()
	v.gz.surface = v.gz.op == gizmoTranslate && modes.surface
	kind := v.gz.op.dragKind()
	if v.gz.surface {
		kind = doc.DragRotate // a turn keeps scales: the move and the turn to the surface's normal
	}
	sel := v.doc.Selection().Entities()
	v.doc.BeginTransformDrag(v.gz.op.label(), kind, sel)
	v.gz.snap.beginSnap(w, sel)
}

// dragTo hands the document the drag's change this frame: the gizmo's matrix m (changed: ImGuizmo moved it), or
// for a move the vertex or surface it snaps to.
func (v *viewportPanel) dragTo(m mgl32.Mat4, changed bool, active ecs.Entity) {
	delta, ok := mgl32.Mat4{}, false
	if v.gz.op == gizmoTranslate {
		if d, snapped := v.vertexSnap(v.gz.applied.Inv()); snapped {
			delta, ok = mgl32.Translate3D(d[0], d[1], d[2]), true
		} else if v.gz.surface {
			if sm, hit := v.surfaceSnap(v.gz.from, v.meshBox(active)); hit {
				delta, ok = sm.Mul4(v.gz.from.Inv()), true
			}
		}
	}
	if ok {
		v.gz.cur = delta.Mul4(v.gz.from) // the gizmo is drawn where the snap put the entity
	} else {
		if !changed {
			return
		}
		delta = m.Mul4(v.gz.from.Inv())
	}
	if delta == v.gz.applied {
		return
	}
	v.gz.applied = delta
	if err := v.doc.DragWorld(delta); err != nil {
		v.log.Errorf("%s: %v", v.gz.op.label(), err)
	}
}

// meshBox is the local bounds of e's mesh as drawn (empty when it draws none).
func (v *viewportPanel) meshBox(e ecs.Entity) viewport.AABB {
	if v.scene.builder == nil {
		return viewport.EmptyAABB()
	}
	dl := v.scene.builder.DrawList()
	if _, ref, ok := dl.Get(viewport.EntityID(e)); ok {
		if b := dl.Batch(ref); b != nil {
			return viewport.MeshBounds(b.Mesh)
		}
	}
	return viewport.EmptyAABB()
}

func (v *viewportPanel) endGizmo() {
	if v.gz.active {
		v.gz.active = false
		v.gz.snap.endSnap()
		if v.scene.builder != nil { // the indexes of meshes no longer drawn (reloaded, deleted) go
			v.gz.snap.cache.Keep(v.scene.builder.DrawList())
		}
		v.doc.EndEdit()
	}
}

// setGizmo chooses the gizmo (W, E, R and the toolbar).
func (v *viewportPanel) setGizmo(op gizmoOp) { v.gz.op = op }

// toggleGizmoSpace switches the gizmo between world and local axes (X).
func (v *viewportPanel) toggleGizmoSpace() { v.gz.local = !v.gz.local }

// gizmo returns the gizmo's mode and whether it uses local axes (the toolbar shows them).
func (v *viewportPanel) gizmo() (gizmoOp, bool) { return v.gz.op, v.gz.local }
