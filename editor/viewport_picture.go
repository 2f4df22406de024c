package editor

import (
	"fmt"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/probe"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/viewport"
)

// viewportPicture is the viewport's side of its picture: which list it shows (the scene's, or the grid dialog's
// preview), whether one is being drawn, what the last frames asked of the renderer (render, lateRender) and when
// the picture was last known to show everything (the probe's marks); and a spawned grid's preview whose picture
// becomes the scene's (adoption).
type viewportPicture struct {
	preview    *viewport.DrawList // drawn instead of the scene while the Spawn Cube Grid dialog previews
	previewBox *viewport.AABB     // outline of the grid being set up, drawn over the image (costs no render)
	shown      *viewport.DrawList // the list drawn last
	pictured   *viewport.DrawList // the list the picture on screen is of (nil: none yet)
	adopt      *adoption          // a spawned grid's preview, whose picture becomes the scene's (adoptPreview)
	adopted    int                // pictures adopted (the probe's Picture.Adopted)
	sizeSeen   [2]int             // the panel's size in the last frame it was built (render)
	lastStats  viewport.RenderStats
	pending    bool      // a picture is being drawn over several frames
	coarse     bool      // the picture on screen was thinned (the view was moving): a full one follows
	moved      bool      // the last frame's picture was asked for because the view or the scene changed
	viewMoved  bool      // because the view changed
	built      bool      // the panel was built in this frame (lateRender)
	editing    bool      // an edit was going on in the last frame drawn (DrawOptions.Between)
	drew       bool      // the panel drew (some of) a picture in this frame (lateRender)
	builtAt    [2]uint64 // the list's version and the selection's when it was (lateRender)
	// currentAt is the newest time (unix ns) at which the picture on screen was known to show everything the
	// viewport shows: the state it was drawn from was sampled then, and nothing changed since (probe marks).
	currentAt int64
}

// drawn is the list the picture should show: the preview while there is one, else the scene's.
func (p *viewportPicture) drawn(scene *viewport.DrawList) *viewport.DrawList {
	if p.preview != nil {
		return p.preview
	}
	return scene
}

// busy reports whether pictures are still to come without input (one being drawn, a thinned one to replace, or
// the view or scene moving in the last frame).
func (p *viewportPicture) busy() bool { return p.pending || p.coarse || p.moved }

// pictureShows reports whether the picture in the last frame showed the state the editor had at time t (unix ns).
func (v *viewportPanel) pictureShows(t int64) bool { return v.pic.currentAt >= t }

// notShown is called in frames that do not build the panel (closed or hidden): there is no picture to wait for.
func (v *viewportPanel) notShown() { v.pic.currentAt = time.Now().UnixNano() }

// buildDrawingNote says, over the image, that the picture of the scene is being drawn, while the image has no
// picture of it yet (a big scene just opened is drawn over many frames, and the last picture, of another scene,
// would look like an empty one meanwhile). A change of the scene on screen keeps its last picture without a word.
func (v *viewportPanel) buildDrawingNote() {
	note := ""
	if dl := v.pic.shown; v.firstPicture() {
		pct := 0
		if st := v.r.Stats(); st.Pending && st.PendingOf > 0 {
			pct = 100 * st.PendingDone / st.PendingOf
		}
		note = drawingNote(dl.Len(), pct)
		v.drawNote(note, float32(pct)/100)
	}
	if v.probe != nil {
		v.probe.Picture.Drawing = note
	}
}

// showDeferred fills the panel in the frame that shows a big world before its draw list is built: the note a
// first picture shows, at 0 %. The list is built once the frame is presented.
func (v *viewportPanel) showDeferred(avail imgui.Vec2) {
	v.scene.deferShown = true
	v.pic.pending = true // frames and steps between them follow
	imgui.Dummy(avail)
	note := drawingNote(v.scene.world.Len(), 0)
	v.drawNote(note, 0)
	if v.probe != nil {
		v.probe.Picture.Pending, v.probe.Picture.Drawing = true, note
	}
}

// drawingNote is the note over a first picture of n entities, pct % drawn.
func drawingNote(n, pct int) string {
	noun := "entities"
	if n == 1 {
		noun = "entity"
	}
	return fmt.Sprintf("Drawing %s %s… %d %%", words.Thousands(int64(n)), noun, pct)
}

// drawNote draws text and a progress bar (frac of it filled) in a dark box at the centre of the image.
func (v *viewportPanel) drawNote(text string, frac float32) {
	const pad, barH = 12, 6
	ts := imgui.CalcTextSize(text)
	w, h := ts.X+2*pad, ts.Y+barH+3*pad
	x := v.area.origin.X + (float32(v.area.w)-w)/2
	y := v.area.origin.Y + (float32(v.area.h)-h)/2
	dl := imgui.WindowDrawList()
	dl.AddRectFilledV(imgui.Vec2{X: x, Y: y}, imgui.Vec2{X: x + w, Y: y + h}, imgui.ColorU32Vec4(imgui.Vec4{X: 0.08, Y: 0.09, Z: 0.11, W: 0.85}), 6, 0)
	dl.AddTextVec2(imgui.Vec2{X: x + pad, Y: y + pad}, imgui.ColorU32Vec4(*imgui.StyleColorVec4(imgui.ColText)), text)
	bar := imgui.Vec2{X: x + pad, Y: y + 2*pad + ts.Y}
	dl.AddRectFilled(bar, imgui.Vec2{X: bar.X + ts.X, Y: bar.Y + barH}, imgui.ColorU32Vec4(*imgui.StyleColorVec4(imgui.ColFrameBg)))
	dl.AddRectFilled(bar, imgui.Vec2{X: bar.X + ts.X*frac, Y: bar.Y + barH}, imgui.ColorU32Vec4(*imgui.StyleColorVec4(imgui.ColPlotHistogram)))
}

// Drawing budgets: how long one frame may spend on the viewport's picture (GPU work included). A picture that
// costs more is drawn over several frames while the last complete one stays on screen; while the view or the
// scene changes frame after frame, a thinned picture that fits is drawn instead.
// While the user gives input (a key or button held, the mouse moving; while typing, also shortly after), frames stay
// short so that they are handled at once; without input — right after a discrete key such as Ctrl+Z — the picture
// gets more of each frame and completes in fewer of them (each frame also costs the UI's own drawing, which on a
// software renderer is a good part of a frame).
const (
	drawBudget     = 15 * time.Millisecond
	idleDrawBudget = 60 * time.Millisecond
	inputCalm      = 300 * time.Millisecond // how long after the last input (typing) the bigger budget waits
)

// render keeps the image up to date: a new picture when what it shows changed — the draw list (the scene, or the
// grid dialog's preview), the selection, the camera, the size, the meshes, or play mode — drawn over as many
// frames as it takes (viewport.Renderer.Draw).
func (v *viewportPanel) render(w, h int) {
	dl := v.pic.drawn(v.scene.builder.DrawList())
	if v.pic.adopt != nil && v.adoptPicture(dl) {
		v.policy.Invalidate()
	}
	if dl != v.pic.shown {
		v.pic.shown = dl
		v.policy.Invalidate()
	}
	// The first picture waits for the panel's size to settle: in the window's first frame the dock layout is not
	// applied yet and the panel spans the whole window. Framebuffers for that size, dropped a frame later for the
	// docked size, cost the first frame about 0.3 s on this machine (llvmpipe zeroes a new texture: 44 MB of fresh
	// pages at 1600×1000).
	settled := v.pic.sizeSeen == [2]int{w, h}
	v.pic.sizeSeen = [2]int{w, h}
	if rw, _ := v.r.Size(); rw == 0 && !settled {
		v.pic.pending = true // a frame follows
		return
	}
	cam := *v.doc.Camera()
	sampled := time.Now().UnixNano()
	state := viewport.FrameState{
		SceneTick: dl.Version(), Selection: v.scene.selVersion, Camera: cam,
		Width: w, Height: h, Assets: v.scene.assetVersion, Playing: v.playing,
	}
	reason := v.policy.Decide(state)
	editing := v.doc.Editing()
	if v.pic.editing && !editing {
		v.pic.pending = true // the edit ended: the renderer is told that its picture is now a step's
	}
	v.pic.editing = editing
	// The view moving (an orbit, pan or fly while its button is held; the camera changing frame after frame, as
	// the view cube turns it): thinned pictures that fit a frame, replaced by the full one, drawn at once, in the
	// first frame after the motion ends. The scene changing frame after frame (play mode, a gizmo drag): complete
	// pictures, each finished before the next is begun.
	viewMoving := reason&viewport.ReasonCamera != 0
	sceneMoving := reason&(viewport.ReasonScene|viewport.ReasonPlaying) != 0
	interactive := v.ctl.Mode() != viewport.ModeNone || viewMoving && v.pic.viewMoved
	changing := sceneMoving && (v.pic.moved || v.gz.active)
	v.pic.moved, v.pic.viewMoved = viewMoving || sceneMoving, viewMoving
	v.pic.drew = false
	if reason == 0 && !v.pic.pending && !v.pic.coarse {
		v.pic.currentAt, v.pic.pictured = sampled, dl
		return
	}
	v.pic.drew = true
	if rw, rh := v.r.Size(); rw != w || rh != h {
		if err := v.r.Resize(w, h); err != nil {
			v.log.Errorf("viewport: %v", err)
		}
	}
	done, err := v.r.Draw(dl, cam, viewport.DrawOptions{Budget: v.clock.budget(interactive), Interactive: interactive, Changing: changing,
		Between: editing})
	if err != nil {
		v.log.Errorf("viewport: %v", err)
	}
	v.pic.pending = !done
	if !done {
		return
	}
	v.pic.pictured = dl
	if v.pic.coarse = v.r.Stats().Thinned; !v.pic.coarse {
		v.pic.currentAt = sampled
	}
	v.noteStats()
}

// stepBetweenFrames goes on with a picture being drawn over several frames, outside a frame (App.drawBetweenFrames),
// one budget's worth, and reports whether it is still being drawn. It does only when the panel's last frame left
// a full picture of what it shows half drawn, and nothing moves the view or the scene.
func (v *viewportPanel) stepBetweenFrames(budget time.Duration) bool {
	if v.buildDeferred() {
		return false // the picture begins in the next frame
	}
	if v.r == nil || !v.pic.pending || v.pic.coarse || v.playing || v.gz.active || v.ctl.Mode() != viewport.ModeNone {
		return false
	}
	dl := v.pic.shown
	if rw, rh := v.r.Size(); dl == nil || dl != v.pic.drawn(v.scene.builder.DrawList()) || rw != v.area.w || rh != v.area.h {
		return false
	}
	done, err := v.r.Draw(dl, *v.doc.Camera(), viewport.DrawOptions{Budget: budget, Between: v.doc.Editing()})
	if err != nil {
		v.log.Errorf("viewport: %v", err)
		return false
	}
	if !done {
		return true
	}
	v.pic.pending = false
	v.pic.pictured = dl
	v.pic.coarse = v.r.Stats().Thinned
	// Not on the screen until the next frame is presented: that frame's render says the picture is current.
	v.noteStats()
	return false
}

// firstPicture reports whether the picture being drawn is the first of the scene on screen (buildDrawingNote
// shows its progress).
func (v *viewportPanel) firstPicture() bool {
	dl := v.pic.shown
	return v.pic.pending && dl != nil && dl == v.scene.builder.DrawList() && v.pic.pictured != dl && dl.Len() > 0
}

// noteStats tells the probe about a picture completed.
func (v *viewportPanel) noteStats() {
	st := v.r.Stats()
	if st.Renders != v.pic.lastStats.Renders || st.Steps == 0 {
		v.pic.lastStats = st
		if v.probe != nil {
			v.probe.Picture = probe.Picture{Drawn: st.Instances, Total: st.Total, Stride: st.Stride, Steps: st.Steps,
				Pictures: st.Renders, Completed: time.Now().UnixNano(), Adopted: v.pic.adopted}
		}
	}
}

// lateRender runs after the panels that change the scene in a frame were built after this one (the Inspector's
// field edits, the gizmo, dialogs, merged jobs): a change a patch drawn at once covers is drawn into the image
// now (viewport.DrawOptions.PatchOnly: the texture shown stays the one the panel gave ImGui), so that this frame
// shows it instead of the next one. A bigger change (a merged spawn of many, drawn over frames) begins now, with
// this frame's budget, when the panel drew nothing in this frame and no input is going on (the frame's budget is
// unspent): its picture is complete a frame earlier. Anything else is left to the next frame's render.
func (v *viewportPanel) lateRender() {
	if !v.pic.built || v.r == nil || v.pic.pending || v.pic.coarse {
		v.pic.built = false
		return
	}
	v.pic.built = false
	sampled := time.Now().UnixNano()
	v.sync()
	dl := v.pic.drawn(v.scene.builder.DrawList())
	if v.pic.adopt != nil && v.adoptPicture(dl) {
		v.policy.Invalidate()
		v.pic.builtAt = [2]uint64{} // the picture changed lists: composed again below
	}
	if rw, rh := v.r.Size(); dl != v.pic.shown || rw != v.area.w || rh != v.area.h || v.pic.builtAt == [2]uint64{dl.Version(), v.scene.selVersion} {
		return // something else to draw, or nothing changed since the panel was built
	}
	tex := v.r.Texture()
	o := viewport.DrawOptions{Budget: v.clock.budget(false), PatchOnly: true, Between: v.doc.Editing()}
	if !v.pic.drew && o.Budget == idleDrawBudget && !v.gz.active && v.ctl.Mode() == viewport.ModeNone {
		o.PatchOnly = false // the frame's budget is unspent: a bigger picture begins now
	}
	done, err := v.r.Draw(dl, *v.doc.Camera(), o)
	if err != nil {
		v.log.Errorf("viewport: %v", err)
	}
	v.pic.pending = !done && !o.PatchOnly
	if done {
		v.pic.pictured = dl
	}
	if done && v.r.Texture() == tex {
		v.pic.currentAt = sampled
		v.noteStats()
	}
}

// renders counts the renders so far.
func (v *viewportPanel) renders() uint64 { return v.policy.Renders() }

// pictures counts the pictures completed (a picture drawn over several frames shows when it is complete).
func (v *viewportPanel) pictures() uint64 { return v.pic.lastStats.Renders }

// setPreview makes the viewport draw list instead of the scene (nil: the scene again) and box's outline over the
// image (nil: none).
func (v *viewportPanel) setPreview(list *viewport.DrawList, box *viewport.AABB) {
	v.showPreview(list)
	v.pic.previewBox = box
}

// showPreview makes list the preview drawn (nil: the scene). The renderer forgets the list shown before (a preview
// replaced by a newer one, or the closed dialog's): it would keep its GPU buffers — at 1M, llvmpipe's copy of a
// million instances and the grid's, about 100 MB of C heap — and the list itself until it drew another.
func (v *viewportPanel) showPreview(list *viewport.DrawList) {
	if old := v.pic.preview; old != nil && old != list {
		v.forget(old)
	}
	v.pic.preview = list
}

// adoption is a grid's preview list and the ids its cubes have in the scene since the grid was spawned.
type adoption struct {
	from *viewport.DrawList
	ids  []uint32 // ids[i]: the id of the preview's cube previewIDBase+i+1
}

// rename is the id in the scene of an id of the preview (the scene's own instances keep theirs).
func (a *adoption) rename(id uint32) uint32 {
	if id > previewIDBase && int(id-previewIDBase) <= len(a.ids) {
		return a.ids[id-previewIDBase-1]
	}
	return id
}

// renamed lists the ids of the preview that rename changes: the adoption compares only their instances one by one.
func (a *adoption) renamed() []uint32 {
	ids := make([]uint32, len(a.ids))
	for i := range ids {
		ids[i] = previewIDBase + uint32(i) + 1
	}
	return ids
}

// adoptPreview says that list, the grid dialog's preview of a grid now spawned as cubes (in the grid's order),
// drew what the scene's list draws now, but for the cubes' ids: the next picture of the scene takes the
// preview's picture on screen instead of drawing it again (adoptPicture).
func (v *viewportPanel) adoptPreview(list *viewport.DrawList, cubes []ecs.Entity) {
	if list == nil || len(cubes) == 0 {
		return
	}
	ids := make([]uint32, len(cubes))
	for i, e := range cubes {
		ids[i] = viewport.EntityID(e)
	}
	v.pic.adopt = &adoption{from: list, ids: ids}
}

// adoptPicture makes the picture on screen, of a spawned grid's preview, the picture of dl (the scene's list, up
// to date) when the renderer finds that dl draws what the preview drew (glrender.Renderer.Adopt); it reports
// whether it did. A spawn of 100,000 cubes beside 100,000 is then in the picture in the frame that adds them,
// instead of after the hundreds of milliseconds its drawing takes on a software renderer.
func (v *viewportPanel) adoptPicture(dl *viewport.DrawList) bool {
	a := v.pic.adopt
	v.pic.adopt = nil
	if a == nil || v.pic.preview != nil || dl != v.scene.builder.DrawList() || v.pic.pending || v.pic.coarse {
		return false
	}
	r, ok := v.r.(interface {
		Adopt(from, to *viewport.DrawList, rename func(uint32) uint32, renamed []uint32) bool
	})
	if !ok || !r.Adopt(a.from, dl, a.rename, a.renamed()) {
		return false
	}
	v.pic.shown = dl
	v.pic.adopted++
	return true
}

// forget tells the renderer that dl will not be drawn again (glrender.Renderer.Forget: its GPU state and kept
// picture are freed).
func (v *viewportPanel) forget(dl *viewport.DrawList) {
	if f, ok := v.r.(interface{ Forget(*viewport.DrawList) }); ok {
		f.Forget(dl)
	}
}

// keepPreview shows list (the grid dialog's preview of a grid being spawned) until dropPreview; nil does nothing.
func (v *viewportPanel) keepPreview(list *viewport.DrawList) {
	if list != nil {
		v.showPreview(list)
	}
}

// dropPreview stops showing list if it is the preview shown.
func (v *viewportPanel) dropPreview(list *viewport.DrawList) {
	if v.pic.preview == list {
		v.showPreview(nil)
	}
}

// drawPreviewBox draws the outline of the grid being set up over the viewport image, which it dims a little (the
// cubes shown, if any, are for older values): ImGui shapes, no render.
func (v *viewportPanel) drawPreviewBox() {
	b := v.pic.previewBox
	if b == nil {
		return
	}
	cam := v.doc.Camera()
	dl := imgui.WindowDrawList()
	dl.AddRectFilled(v.area.origin, imgui.Vec2{X: v.area.origin.X + float32(v.area.w), Y: v.area.origin.Y + float32(v.area.h)}, 0x50000000)
	var px [8]imgui.Vec2
	var ok [8]bool
	for i := range 8 {
		c := mgl32.Vec3{b.Min[0], b.Min[1], b.Min[2]}
		for axis := range 3 {
			if i&(1<<axis) != 0 {
				c[axis] = b.Max[axis]
			}
		}
		x, y, in := cam.WorldToPixel(c, v.area.w, v.area.h)
		px[i], ok[i] = imgui.Vec2{X: v.area.origin.X + x, Y: v.area.origin.Y + y}, in
	}
	const shadow, line = 0xc0000000, 0xff60e0ff // ABGR: a dark edge under a bright yellow line
	for pass, col := range [2]uint32{shadow, line} {
		for i := range 8 {
			for axis := range 3 {
				j := i | 1<<axis
				if j != i && ok[i] && ok[j] {
					dl.AddLineV(px[i], px[j], col, float32(4-2*pass))
				}
			}
		}
	}
}
