package editor

import (
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/viewport"
)

// viewportScene is the world the viewport draws and its draw list (the builder's), with the versions the redraw
// policy compares.
type viewportScene struct {
	world        *ecs.World
	builder      *viewport.Builder
	meshes       viewport.MeshSource
	selSynced    uint64       // document selection version the builder shows
	selVersion   uint64       // bumped on every selection change (for the redraw policy)
	filter       entityFilter // what the user hid and locked (nil: nothing)
	hideSynced   uint64       // the filter's changes the builder hides (0: none yet)
	assetVersion uint64
	// deferred: the builder of a big world just shown has not built its list yet. The first frame of the world
	// shows the panels without it, and the list is built once that frame is presented (stepBetweenFrames, or the
	// next frame's sync when none came between): at a million cubes a third of a second.
	deferred, deferShown bool
}

// deferBuildMin is the entity count from which a new world's draw list is built after the frame that shows it.
var deferBuildMin = 1 << 16

// sync points the panel at the document's world (a newly opened scene, or play mode's clone) and its selection,
// and brings the draw list up to date.
func (v *viewportPanel) sync() {
	if w := v.doc.World(); v.scene.world != w {
		v.scene.world = w
		if v.scene.builder != nil { // the last world's list is not drawn again: its GPU buffers and kept picture go
			v.forget(v.scene.builder.DrawList())
		}
		v.scene.builder = viewport.NewBuilder(w, v.scene.meshes)
		v.scene.selSynced, v.scene.hideSynced = 0, 0
		v.scene.deferred, v.scene.deferShown = w.Len() >= deferBuildMin, false
		v.policy.Invalidate()
	}
	if sv := v.doc.Selection().Version(); sv != v.scene.selSynced {
		v.scene.selSynced = sv
		v.scene.builder.SetSelection(v.doc.Selection().All())
		v.scene.selVersion++
	}
	if v.scene.filter != nil && v.scene.filter.changes() != v.scene.hideSynced {
		v.scene.hideSynced = v.scene.filter.changes()
		v.scene.builder.SetHide(v.scene.filter.hideFunc())
	}
	if v.scene.deferred && !v.scene.deferShown {
		return
	}
	v.scene.deferred = false
	v.scene.builder.Update()
}

// buildDeferred builds the draw list sync left to be built after the frame that showed the panels; it reports
// whether there was one.
func (v *viewportPanel) buildDeferred() bool {
	if !v.scene.deferred || !v.scene.deferShown {
		return false
	}
	v.scene.deferred = false
	v.scene.builder.Update()
	return true
}

// lockedID reports whether the entity of a draw-list id is locked (picking passes over it).
func (v *viewportPanel) lockedID(id uint32) bool {
	e, ok := v.scene.builder.Entity(id)
	return ok && v.scene.filter != nil && v.scene.filter.locked(e)
}

// pickAt returns the entity drawn at pixel (x, y) of the image that is not locked: the id image's, or, where that
// one is locked, the nearest unlocked one behind it along the ray.
func (v *viewportPanel) pickAt(x, y int) (ecs.Entity, bool) {
	id := v.r.ReadID(x, y)
	if !v.lockedID(id) {
		return v.scene.builder.Entity(id)
	}
	ray := v.doc.Camera().Ray(float32(x)+0.5, float32(y)+0.5, v.area.w, v.area.h)
	hit, ok := v.scene.builder.DrawList().PickExcept(ray, v.lockedID)
	if !ok {
		return ecs.Entity{}, false
	}
	return v.scene.builder.Entity(hit.ID)
}

// selectionLocked reports whether any selected entity is locked (the gizmo refuses to move them).
func (v *viewportPanel) selectionLocked() bool {
	if v.scene.filter == nil || !v.scene.filter.hasLocks() {
		return false
	}
	for _, e := range v.doc.Selection().Entities() {
		if v.scene.filter.locked(e) {
			return true
		}
	}
	return false
}

// frameSelection points the camera at the selection (F), or at everything when nothing is selected.
func (v *viewportPanel) frameSelection() { v.frame(v.doc.Selection().Entities()) }

// frame points the camera at sel, or at everything when sel is empty.
func (v *viewportPanel) frame(sel []ecs.Entity) {
	if v.scene.builder == nil {
		return
	}
	dl := v.scene.builder.DrawList()
	var b viewport.AABB
	if len(sel) > 0 {
		ids := make([]uint32, 0, len(sel))
		for _, e := range sel {
			ids = append(ids, viewport.EntityID(e))
		}
		b = dl.BoundsOf(ids)
		if b.IsEmpty() { // selected entities without meshes: frame their positions
			b = viewport.EmptyAABB()
			for _, e := range sel {
				b = b.Extend(v.doc.World().WorldMatrix(e).Col(3).Vec3())
			}
		}
	} else {
		b = dl.Bounds()
	}
	if !b.IsEmpty() {
		v.doc.Camera().Frame(b, v.aspect())
	}
}

// reloadMeshes picks up reloaded asset meshes and redraws.
func (v *viewportPanel) reloadMeshes() {
	if v.scene.builder != nil {
		v.scene.builder.ReloadMeshes()
	}
	v.scene.assetVersion++
}

// sceneVersion is the version of what the viewport draws (changes when meshes come into or go out of use).
func (v *viewportPanel) sceneVersion() uint64 {
	if v.scene.builder == nil {
		return 0
	}
	return v.scene.builder.DrawList().Version()
}

// The grid dialog's view of the viewport (gridView): the scene it places the grid beside, the camera, the
// preview it shows.

// sceneList returns the scene's draw list as of the panel's last frame (nil before its first).
func (v *viewportPanel) sceneList() *viewport.DrawList {
	if v.scene.builder == nil {
		return nil
	}
	return v.scene.builder.DrawList()
}

// sceneWorld returns the world the viewport draws.
func (v *viewportPanel) sceneWorld() *ecs.World { return v.scene.world }

// camera returns the camera the viewport shows (the document's).
func (v *viewportPanel) camera() *viewport.Camera { return v.doc.Camera() }
