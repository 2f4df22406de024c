package editor

import (
	"fmt"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/probe"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/viewport"
	"github.com/voltex-editor/voltex/viewport/snap"
)

// Prefab instances in the panels: the hierarchy marks them (prefabRowStyle), the Inspector shows the instance the
// active entity belongs to and its overrides (the prefab section), the Assets panel lists prefab files to drag
// into the viewport or onto the hierarchy (prefabDrag). The commands are the workspace's (prefabs.go).

// prefabPayload and meshPayload are the drag-and-drop payloads of a prefab and of a mesh dragged from the Assets
// panel (the path or mesh reference is kept in prefabDrag.dragging).
const (
	prefabPayload = "VOLTEX_PREFAB"
	meshPayload   = "VOLTEX_MESH"
)

var (
	prefabBlue     = imgui.Vec4{X: 0.45, Y: 0.75, Z: 1, W: 1}
	prefabPartBlue = imgui.Vec4{X: 0.5, Y: 0.72, Z: 0.95, W: 1}
)

// prefabRowStyle says how the hierarchy marks a row: instances (and their entities) in the override blue,
// instances whose prefab cannot be used in red, placeholders grey.
func prefabRowStyle(d interface {
	World() *ecs.World
	Prefabs() *doc.Prefabs
}, e ecs.Entity) (kind string, col imgui.Vec4, ok bool) {
	w := d.World()
	if pf, isRoot := ecs.NewMap[scene.Prefab](w).TryGet(e); isRoot && !d.Prefabs().IsPart(e) {
		if pf.Problem != "" {
			return "broken", errorColor, true
		}
		return "instance", prefabBlue, true
	}
	if k, kept := ecs.NewMap[scene.PrefabKept](w).TryGet(e); kept && k.Orphan {
		return "placeholder", imgui.Vec4{X: 0.55, Y: 0.55, Z: 0.55, W: 1}, true
	}
	if d.Prefabs().IsPart(e) {
		return "part", prefabPartBlue, true
	}
	return "", imgui.Vec4{}, false
}

// prefabView is the Inspector's prefab section: the overrides of the inspected entity (cached by document
// version) and its buttons of the last frame (for the probe).
type prefabView struct {
	ovEntity  ecs.Entity
	ovVersion uint64
	ov        []serialize.Override
	// many: the overrides of each inspected entity of a selection of several (cached until the document changes;
	// during an edit of more than bigSelection entities, those of its start).
	many        map[ecs.Entity][]serialize.Override
	manyVersion uint64
	// paths: the override paths of each component for a selection of several (inspOverrides.OverridePaths), kept
	// while pathsKey holds: asked for every component in every frame, they cost a look-up per selected entity.
	paths    map[string][]string
	pathsKey pathsKey
	parts    []ecs.Entity // the entities of prefab instances among the selection of pathsKey
	widgets  map[string]probe.Widget
}

// pathsKey is what the override paths of a selection depend on.
type pathsKey struct {
	ver, selVer uint64
	first       *ecs.Entity
	n           int
}

// bigSelection is the size of a selection whose override marks are not recomputed during an edit (a drag).
const bigSelection = 64

// overridesOf returns the overrides of e, one of n inspected entities.
func (v *prefabView) overridesOf(d inspectorDoc, e ecs.Entity, n int) []serialize.Override {
	if n <= 1 {
		return v.overrides(d, e)
	}
	if v.manyVersion != d.Version() && !(d.Editing() && n > bigSelection) || len(v.many) > 2*n+bigSelection {
		v.manyVersion = d.Version()
		clear(v.many)
	}
	if ov, ok := v.many[e]; ok {
		return ov
	}
	if v.many == nil {
		v.many = map[ecs.Entity][]serialize.Override{}
	}
	var ov []serialize.Override
	if d.Prefabs().IsPart(e) {
		ov = d.Prefabs().Overrides(e)
	}
	v.many[e] = ov
	return ov
}

// overrides returns the overrides of e (cached until the document changes).
func (v *prefabView) overrides(d inspectorDoc, e ecs.Entity) []serialize.Override {
	if v.ovEntity != e || v.ovVersion != d.Version() {
		v.ovEntity, v.ovVersion = e, d.Version()
		v.ov = nil
		if d.Prefabs().IsPart(e) {
			v.ov = d.Prefabs().Overrides(e)
		}
	}
	return v.ov
}

// record notes the last item for the probe (under Inspector).
func (v *prefabView) record(name string) {
	if v.widgets == nil {
		v.widgets = map[string]probe.Widget{}
	}
	v.widgets[name] = probe.Widget{Rect: rectOf(imgui.ItemRectMin(), imgui.ItemRectSize())}
}

// buildPrefabSection shows, above the components, the prefab instance the active entity belongs to, with Select,
// Revert All, Apply All and Unpack, and the active entity's overrides, each with Revert and Apply.
func (p *inspectorPanel) buildPrefabSection() {
	clear(p.prefab.widgets)
	e, ok := p.doc.Selection().Active()
	if !ok || p.doc.Selection().Len() != 1 {
		return
	}
	root, in := p.doc.Prefabs().InstanceOf(e)
	if !in {
		return
	}
	w := p.doc.World()
	pf := ecs.NewMap[scene.Prefab](w).Get(root)
	label := "Prefab instance: " + pf.Path
	if root != e {
		label = "In prefab instance " + p.doc.Name(root) + " (" + pf.Path + ")"
	}
	textColored(prefabBlue, registerText(label))
	if pf.Problem != "" {
		textWrapped(errorColor, "Cannot be used: "+pf.Problem+". Its overrides are kept and saved as they are.")
	}
	editable := !p.doc.PlayMode().Playing()
	if editable {
		if root != e && imgui.SmallButton("Select Instance") {
			p.doc.Selection().Select(root)
		}
		if root != e {
			imgui.SameLine()
		}
		p.prefabButton("Revert All", p.cmds.CmdRevertInstance)
		imgui.SameLine()
		p.prefabButton("Apply All", p.cmds.CmdApplyInstance)
		imgui.SameLine()
		p.prefabButton("Unpack", p.cmds.CmdUnpackPrefab)
	}
	if k, kept := ecs.NewMap[scene.PrefabKept](w).TryGet(e); kept && k.Orphan {
		textWrapped(errorColor, "The prefab has no such entity (any more). What the scene file says about it is kept and written back.")
	}
	ovs := p.prefab.overrides(p.doc, e)
	if len(ovs) == 0 {
		if p.doc.Prefabs().IsPart(e) {
			textDisabled("No overrides: this entity is as its prefab has it.")
		}
		imgui.Separator()
		return
	}
	textDisabled(fmt.Sprintf("Overrides of this entity (%d):", len(ovs)))
	for i, ov := range ovs {
		p.buildOverride(i, e, ov, editable)
	}
	imgui.Separator()
}

// buildOverride draws one override of e with its Revert and Apply buttons.
func (p *inspectorPanel) buildOverride(i int, e ecs.Entity, ov serialize.Override, editable bool) {
	imgui.PushIDInt(int32(i))
	defer imgui.PopID()
	what := ov.Component
	switch {
	case ov.Path == "name":
		what = "name"
	case ov.Removed:
		what = ov.Component + " (removed)"
	case ov.Added:
		what = ov.Component + " (added)"
	case ov.Path != "":
		what = ov.Component + "." + ov.Path
	}
	path := ov.Path
	if ov.Removed || ov.Added {
		path = ""
	}
	textColored(prefabBlue, registerText(what))
	p.recordPrefab("override:" + what)
	if !editable {
		return
	}
	imgui.SameLine()
	if imgui.SmallButton("Revert") {
		p.cmds.Report("revert", p.cmds.RevertOverride([]ecs.Entity{e}, ov.Component, path))
	}
	p.recordPrefab("revert:" + what)
	imgui.SameLine()
	if imgui.SmallButton("Apply") {
		p.cmds.Report("apply", p.cmds.ApplyOverride(e, ov.Component, path))
	}
	p.recordPrefab("apply:" + what)
}

// recordPrefab notes the last item of the prefab section for the probe.
func (p *inspectorPanel) recordPrefab(name string) {
	if p.probe != nil {
		p.prefab.record(name)
	}
}

func (p *inspectorPanel) prefabButton(label string, run func()) {
	if imgui.SmallButton(label) {
		run()
	}
	p.recordPrefab("prefab:" + label)
}

// prefabDrag is a prefab or a mesh being dragged from the Assets panel, and its drop targets: a hierarchy row (a
// prefab is placed as a child of that entity), the hierarchy's empty space (a root) and the viewport image
// (standing where the mouse points; a mesh makes an entity with it there).
type prefabDrag struct {
	dragging   string // the prefab's path or the mesh's reference ("" when none)
	payload    string // prefabPayload or meshPayload
	delivered  bool   // the drag was dropped (ImGui may report the delivery in more than one frame)
	place      func(path string, parent ecs.Entity, pos mgl32.Vec3)
	dropPrefab func(path string, at snap.SurfaceHit)
	dropMesh   func(ref string, at snap.SurfaceHit)
}

// source makes the last item a drag source of the prefab at path (payload prefabPayload) or of the mesh ref
// (meshPayload).
func (pd *prefabDrag) source(payload, what, label string) {
	if !imgui.BeginDragDropSource() {
		return
	}
	if pd.dragging == "" {
		pd.dragging, pd.payload = what, payload
	}
	imgui.SetDragDropPayload(payload, 0, 0)
	text(label)
	imgui.EndDragDropSource()
}

// endIfIdle forgets a finished drag: with no drag in progress, the next one starts afresh.
func (pd *prefabDrag) endIfIdle() {
	if p := imgui.DragDropPayload(); p == nil || p.CData == nil {
		pd.dragging, pd.delivered = "", false
	}
}

// take reports whether a dropped prefab or mesh is still to be placed (once per drag).
func (pd *prefabDrag) take() bool {
	if pd.dragging == "" || pd.delivered {
		return false
	}
	pd.delivered = true
	return true
}

// dropped reports whether what is dragged, of payload kind, was dropped on the last item this frame (once per
// drag).
func (pd *prefabDrag) dropped(payload string) bool {
	if pd.payload != payload || !imgui.BeginDragDropTarget() {
		return false
	}
	p := imgui.AcceptDragDropPayload(payload)
	ok := p != nil && p.CData != nil && p.IsDelivery() && pd.take()
	imgui.EndDragDropTarget()
	return ok
}

// acceptPrefabDrop places a prefab dropped on the last item (a hierarchy row) under target (zero: a root).
func (pd *prefabDrag) acceptPrefabDrop(target ecs.Entity) {
	if pd.dropped(prefabPayload) {
		pd.place(pd.dragging, target, mgl32.Vec3{})
	}
}

// dropOnView places a prefab or mesh dropped on the viewport image where the mouse (local, in the w×h image)
// points, standing on what is there: the surface the ray meets, turned to its normal (surface, when surface
// snapping is on and it meets one), else the ground plane (y = 0), else the view's centre (the camera's pivot)
// when it points at the sky.
func (pd *prefabDrag) dropOnView(cam *viewport.Camera, local imgui.Vec2, w, h int, surface func(viewport.Ray) (snap.SurfaceHit, bool)) {
	prefab := pd.dropped(prefabPayload)
	if !prefab && !pd.dropped(meshPayload) {
		return
	}
	r := cam.Ray(local.X, local.Y, w, h)
	at, ok := surface(r)
	if !ok {
		at = snap.SurfaceHit{Point: cam.Pivot, Normal: mgl32.Vec3{0, 1, 0}}
		if t, ok := r.IntersectPlane(mgl32.Vec3{0, 1, 0}, 0); ok && t > 0 {
			at.Point = r.At(t)
		}
	}
	if prefab {
		pd.dropPrefab(pd.dragging, at)
	} else {
		pd.dropMesh(pd.dragging, at)
	}
}
