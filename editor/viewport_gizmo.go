package editor

import (
	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/AllenDang/cimgui-go/imguizmo"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/doc"
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
// selected entities' Transforms (Ctrl snaps to the steps in the settings); while playing, a drag moves them in the
// playing scene, and Stop offers to keep it.
func (v *viewportPanel) buildGizmo() {
	active, ok := v.doc.Selection().Active()
	w := v.doc.World()
	tid, hasT := ecs.ComponentIDOf[ecs.Transform](w)
	if !ok || !hasT || !w.Has(active, tid) {
		v.endGizmo()
		if v.probe != nil {
			v.probe.Gizmo = [2]int{}
		}
		return
	}
	cam := v.doc.Camera()
	imguizmo.SetDrawlistV(imgui.WindowDrawList())
	imguizmo.SetRect(v.area.origin.X, v.area.origin.Y, float32(v.area.w), float32(v.area.h))
	imguizmo.SetOrthographic(false)
	view := cam.View()
	proj := cam.Proj(v.aspect())
	m := w.WorldMatrix(active)
	if v.gz.active {
		m = v.gz.cur // continue from the matrix ImGuizmo gave last frame (no decomposition drift)
	}
	mode := v.gz.mode()
	var snap *float32
	var steps [3]float32
	if imgui.CurrentIO().KeyCtrl() {
		s := v.host.snapStep(v.gz.op)
		steps = [3]float32{s, s, s}
		snap = &steps[0]
	}
	if v.probe != nil {
		if x, y, ok := cam.WorldToPixel(m.Col(3).Vec3(), v.area.w, v.area.h); ok {
			v.probe.Gizmo = [2]int{int(v.area.origin.X + x), int(v.area.origin.Y + y)}
		}
	}
	changed := imguizmo.ManipulateV(&view[0], &proj[0], v.gz.op.imguizmo(), mode, &m[0], nil, snap, nil, nil)
	using := imguizmo.IsUsing()
	if using && !v.gz.active {
		v.gz.active = true
		v.gz.from = w.WorldMatrix(active)
		v.doc.BeginTransformDrag(v.gz.op.label(), v.gz.op.dragKind(), v.doc.Selection().Entities())
	}
	if v.gz.active {
		v.gz.cur = m
	}
	if v.gz.active && changed {
		if err := v.doc.DragWorld(m.Mul4(v.gz.from.Inv())); err != nil {
			v.log.Errorf("%s: %v", v.gz.op.label(), err)
		}
	}
	if !using && v.gz.active {
		v.endGizmo()
	}
}

func (v *viewportPanel) endGizmo() {
	if v.gz.active {
		v.gz.active = false
		v.doc.EndEdit()
	}
}

// setGizmo chooses the gizmo (W, E, R and the toolbar).
func (v *viewportPanel) setGizmo(op gizmoOp) { v.gz.op = op }

// toggleGizmoSpace switches the gizmo between world and local axes (X).
func (v *viewportPanel) toggleGizmoSpace() { v.gz.local = !v.gz.local }

// gizmo returns the gizmo's mode and whether it uses local axes (the toolbar shows them).
func (v *viewportPanel) gizmo() (gizmoOp, bool) { return v.gz.op, v.gz.local }
