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
	selSynced    uint64 // document selection version the builder shows
	selVersion   uint64 // bumped on every selection change (for the redraw policy)
	assetVersion uint64
}

// sync points the panel at the document's world (a newly opened scene, or play mode's clone) and its selection,
// and brings the draw list up to date.
func (v *viewportPanel) sync() {
	if w := v.doc.World(); v.scene.world != w {
		v.scene.world = w
		if v.scene.builder != nil { // the last world's list is not drawn again: its GPU buffers and kept picture go
			v.forget(v.scene.builder.DrawList())
		}
		v.scene.builder = viewport.NewBuilder(w, v.scene.meshes)
		v.scene.selSynced = 0
		v.policy.Invalidate()
	}
	if sv := v.doc.Selection().Version(); sv != v.scene.selSynced {
		v.scene.selSynced = sv
		v.scene.builder.SetSelection(v.doc.Selection().Entities())
		v.scene.selVersion++
	}
	v.scene.builder.Update()
}

// frameSelection points the camera at the selection (F), or at everything when nothing is selected.
func (v *viewportPanel) frameSelection() {
	if v.scene.builder == nil {
		return
	}
	dl := v.scene.builder.DrawList()
	var b viewport.AABB
	if sel := v.doc.Selection().Entities(); len(sel) > 0 {
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
