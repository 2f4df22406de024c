package editor

import (
	"context"
	"errors"
	"fmt"
	"image"
	"slices"
	"testing"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/probe"
	"github.com/voltex-editor/voltex/viewport"
)

// fakeRenderer is a viewport.Renderer without a GPU: it keeps what it was asked to draw and answers the id reads
// by CPU picking (viewport.DrawList.Pick) through the camera it last rendered with, as the GPU's id image would.
type fakeRenderer struct {
	w, h    int
	renders int
	list    *viewport.DrawList
	version uint64 // list's version when drawn
	cam     viewport.Camera
	deleted bool
	opts    []viewport.DrawOptions // of every Draw
	// steps, if more than 1, is how many calls of Draw a picture of another list (or of a changed one) takes, as
	// a big picture does; drawing counts the calls of the picture being drawn.
	steps   int
	drawing struct {
		list    *viewport.DrawList
		version uint64
		calls   int
	}
}

var _ viewport.Renderer = (*fakeRenderer)(nil)

func (f *fakeRenderer) Size() (int, int) { return f.w, f.h }
func (f *fakeRenderer) Resize(w, h int) error {
	f.w, f.h = w, h
	return nil
}
func (f *fakeRenderer) Draw(dl *viewport.DrawList, cam viewport.Camera, o viewport.DrawOptions) (bool, error) {
	if f.steps > 1 && (dl != f.list || dl.Version() != f.version) {
		d := &f.drawing
		if d.list != dl || d.version != dl.Version() {
			d.list, d.version, d.calls = dl, dl.Version(), 0
		}
		if d.calls++; d.calls < f.steps {
			return false, nil
		}
	}
	f.renders++
	f.opts = append(f.opts, o)
	f.list, f.version, f.cam = dl, dl.Version(), cam
	return true, nil
}
func (f *fakeRenderer) Texture() uint32 { return 1 }
func (f *fakeRenderer) ReadID(x, y int) uint32 {
	if f.list == nil || x < 0 || y < 0 || x >= f.w || y >= f.h {
		return 0
	}
	hit, ok := f.list.Pick(f.cam.Ray(float32(x)+0.5, float32(y)+0.5, f.w, f.h))
	if !ok {
		return 0
	}
	return hit.ID
}
func (f *fakeRenderer) ReadIDs(r image.Rectangle) []uint32 {
	var ids []uint32
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			if id := f.ReadID(x, y); id != 0 && !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	slices.Sort(ids)
	return ids
}
func (f *fakeRenderer) Stats() viewport.RenderStats {
	st := viewport.RenderStats{Renders: uint64(f.renders)}
	if d := f.drawing; f.steps > 1 && d.calls > 0 && d.calls < f.steps {
		st.Pending, st.PendingDone, st.PendingOf = true, d.calls, f.steps
	}
	return st
}
func (f *fakeRenderer) Delete() { f.deleted = true }

// fakeViewportHost is the rest of the editor as the viewport panel sees it.
type fakeViewportHost struct {
	modal  bool
	picks  [][]ecs.Entity
	drops  int
	step   float32
	stepOp []gizmoOp
	modes  snapModes
}

func (f *fakeViewportHost) modalOpen() bool                 { return f.modal }
func (f *fakeViewportHost) picked(es []ecs.Entity)          { f.picks = append(f.picks, es) }
func (f *fakeViewportHost) prefabDrop(imgui.Vec2, int, int) { f.drops++ }
func (f *fakeViewportHost) snapModes() snapModes            { return f.modes }
func (f *fakeViewportHost) snapStep(op gizmoOp) float32 {
	f.stepOp = append(f.stepOp, op)
	return f.step
}

// vpFixture is a viewport panel in a windowless UI over three cubes at x = -3, 0, 3, with a fake renderer.
type vpFixture struct {
	ui    *uiContext
	d     *doc.Document
	v     *viewportPanel
	r     *fakeRenderer
	host  *fakeViewportHost
	log   *Console
	st    *probe.State
	cubes []ecs.Entity
	build func()
}

func newVPFixture(t *testing.T) *vpFixture {
	f := &vpFixture{ui: newUIContext(t), d: doc.New("V", doc.Options{}), r: &fakeRenderer{}, host: &fakeViewportHost{step: 1},
		log: NewConsole(20), st: &probe.State{}}
	for _, x := range []float32{-3, 0, 3} {
		e, err := f.d.SpawnCube(ecs.Entity{})
		if err != nil {
			t.Fatal(err)
		}
		if err := f.d.SetField([]ecs.Entity{e}, mustComponent[ecs.Transform](t, f.d), "position", mgl32.Vec3{x, 0, 0}); err != nil {
			t.Fatal(err)
		}
		f.cubes = append(f.cubes, e)
	}
	f.d.Selection().Clear()
	meshes := assets.NewRegistry(".", assets.DefaultLimits())
	f.v = newViewportPanel(nil, f.host, meshes, func() (viewport.Renderer, error) { return f.r, nil }, f.log, f.st)
	f.v.setDoc(f.d, true) // no camera in a file: framed on the first frame
	f.build = func() {
		imgui.PushStyleVarVec2(imgui.StyleVarWindowPadding, imgui.Vec2{})
		inWindow(panelViewport, 0, 0, 800, 600, f.v.Build)
		imgui.PopStyleVar()
	}
	f.ui.frames(2, f.build)
	return f
}

func mustComponent[T any](t *testing.T, d *doc.Document) ecs.ComponentID {
	t.Helper()
	id, ok := ecs.ComponentIDOf[T](d.World())
	if !ok {
		t.Fatal("component not registered")
	}
	return id
}

// pixelOf is where the centre of e is on the screen (the window starts at 0, 0).
func (f *vpFixture) pixelOf(t *testing.T, e ecs.Entity) (float32, float32) {
	t.Helper()
	x, y, ok := f.d.Camera().WorldToPixel(f.d.World().WorldMatrix(e).Col(3).Vec3(), f.v.area.w, f.v.area.h)
	if !ok {
		t.Fatalf("%v is not in view", e)
	}
	return float32(f.st.Viewport.X) + x, float32(f.st.Viewport.Y) + y
}

func TestViewportRendersOnlyWhatChanged(t *testing.T) {
	f := newVPFixture(t)
	if f.r.renders != 1 || f.r.w != f.st.Viewport.W || f.r.h != f.st.Viewport.H {
		t.Fatalf("after two frames: %d renders at %dx%d, want 1 at %dx%d", f.r.renders, f.r.w, f.r.h, f.st.Viewport.W, f.st.Viewport.H)
	}
	if cam := *f.d.Camera(); cam == viewport.DefaultCamera() {
		t.Fatal("a scene without a saved camera was not framed")
	}
	f.ui.frames(5, f.build)
	if f.r.renders != 1 || f.v.renders() != 1 || f.st.ViewportRenders != 1 {
		t.Fatalf("idle frames rendered: %d", f.r.renders)
	}
	// An edit re-renders once.
	if err := f.d.SetField(f.cubes[:1], mustComponent[ecs.Transform](t, f.d), "position", mgl32.Vec3{-4, 0, 0}); err != nil {
		t.Fatal(err)
	}
	f.ui.frames(3, f.build)
	if f.r.renders != 2 {
		t.Fatalf("after an edit: %d renders, want 2", f.r.renders)
	}
	// A preview replaces the scene's list; the outline box costs no render.
	preview := viewport.NewDrawList()
	box := viewport.AABB{Max: mgl32.Vec3{1, 1, 1}}
	f.v.setPreview(preview, &box)
	f.ui.frames(2, f.build)
	if f.r.renders != 3 || f.r.list != preview {
		t.Fatalf("a preview: %d renders, list %p (preview %p)", f.r.renders, f.r.list, preview)
	}
	f.v.setPreview(nil, nil)
	f.ui.frames(2, f.build)
	if f.r.renders != 4 || f.r.list == preview {
		t.Fatal("the scene did not come back after the preview")
	}
	f.v.showStats = true
	f.ui.frames(2, f.build)
	if f.r.renders != 4 {
		t.Fatal("the stats overlay re-rendered the scene")
	}
	f.v.delete()
	if !f.r.deleted || f.v.r != nil {
		t.Fatal("delete did not free the renderer")
	}
}

func TestViewportPicksClickBoxAndCtrl(t *testing.T) {
	f := newVPFixture(t)
	x, y := f.pixelOf(t, f.cubes[1])
	f.ui.click(imgui.MouseButtonLeft, x, y, f.build)
	if got := f.d.Selection().Entities(); !slices.Equal(got, f.cubes[1:2]) {
		t.Fatalf("click on the middle cube selected %v", got)
	}
	if len(f.host.picks) != 1 || !slices.Equal(f.host.picks[0], f.cubes[1:2]) {
		t.Fatalf("the host was told %v", f.host.picks)
	}
	// Ctrl-click toggles another in, and the first out.
	x2, y2 := f.pixelOf(t, f.cubes[2])
	f.ui.modifiers(true, false, false)
	f.ui.click(imgui.MouseButtonLeft, x2, y2, f.build)
	f.ui.click(imgui.MouseButtonLeft, x, y, f.build)
	f.ui.modifiers(false, false, false)
	f.ui.frame(f.build)
	if got := f.d.Selection().Entities(); !slices.Equal(got, f.cubes[2:3]) {
		t.Fatalf("after ctrl-clicks: %v, want the right cube", got)
	}
	// A click on nothing clears the selection; a box around everything selects the three.
	f.ui.click(imgui.MouseButtonLeft, 20, 580, f.build)
	if n := f.d.Selection().Len(); n != 0 {
		t.Fatalf("a click on the background left %d selected", n)
	}
	x0, _ := f.pixelOf(t, f.cubes[0])
	f.ui.drag(x0-80, y-80, x2+80, y+80, f.build)
	if got := f.d.Selection().Entities(); len(got) != 3 {
		t.Fatalf("box selection: %v", got)
	}
	// While a dialog is open the viewport does not pick.
	f.host.modal = true
	f.ui.click(imgui.MouseButtonLeft, 20, 580, f.build)
	if n := f.d.Selection().Len(); n != 3 {
		t.Fatal("a click went through an open dialog")
	}
}

func TestViewportCameraOrbitZoomAndFrame(t *testing.T) {
	f := newVPFixture(t)
	before := *f.d.Camera()
	renders := f.r.renders
	// Middle drag orbits (the document's camera: the one the file saves).
	f.ui.move(400, 300, f.build)
	f.ui.press(imgui.MouseButtonMiddle, true, f.build)
	for i := 1; i <= 5; i++ {
		f.ui.move(400+float32(20*i), 300, f.build)
	}
	f.ui.press(imgui.MouseButtonMiddle, false, f.build)
	after := *f.d.Camera()
	if after.Yaw == before.Yaw || f.r.renders == renders || f.r.cam != after {
		t.Fatalf("orbit: yaw %v → %v, %d renders; rendered with %+v", before.Yaw, after.Yaw, f.r.renders-renders, f.r.cam)
	}
	// The wheel zooms.
	f.ui.io().AddMouseWheelEvent(0, 2)
	f.ui.frames(2, f.build)
	if d := f.d.Camera().Distance; d >= after.Distance {
		t.Fatalf("wheel: distance %v → %v", after.Distance, d)
	}
	// F frames the selection: the camera looks at the selected cube.
	f.d.Selection().Select(f.cubes[2])
	f.v.frameSelection()
	if p := f.d.Camera().Pivot; p.Sub(mgl32.Vec3{3, 0, 0}).Len() > 1e-3 {
		t.Fatalf("frame selection: pivot %v, want the right cube at 3,0,0", p)
	}
}

func TestViewportGizmoDragIsOneUndoStep(t *testing.T) {
	f := newVPFixture(t)
	f.d.Selection().Select(f.cubes[1])
	f.ui.frames(2, f.build)
	if f.st.Gizmo == ([2]int{}) {
		t.Fatal("no gizmo on the selected cube")
	}
	undos := f.d.History().Undos()
	gx, gy := float32(f.st.Gizmo[0]), float32(f.st.Gizmo[1])
	f.ui.drag(gx, gy, gx+60, gy, f.build) // the centre of the move gizmo: in the view plane
	pos := f.d.World().WorldMatrix(f.cubes[1]).Col(3).Vec3()
	if pos.X() < 0.5 || f.d.History().Undos() != undos+1 {
		t.Fatalf("after dragging the gizmo 60 px right: position %v, %d undo steps (want 1 more than %d)", pos, f.d.History().Undos(), undos)
	}
	if err := f.d.History().Undo(); err != nil {
		t.Fatal(err)
	}
	if pos := f.d.World().WorldMatrix(f.cubes[1]).Col(3).Vec3(); pos.Len() > 1e-5 {
		t.Fatalf("undo left the cube at %v", pos)
	}
	// With Ctrl held the drag snaps to the move step.
	f.ui.frames(2, f.build)
	f.ui.modifiers(true, false, false)
	f.ui.drag(gx, gy, gx+60, gy, f.build)
	f.ui.modifiers(false, false, false)
	pos = f.d.World().WorldMatrix(f.cubes[1]).Col(3).Vec3()
	if len(f.host.stepOp) == 0 || f.host.stepOp[0] != gizmoTranslate || pos.X() != float32(int(pos.X())) {
		t.Fatalf("a Ctrl drag: steps asked for %v, position %v (want whole units)", f.host.stepOp, pos)
	}
	// In play mode a drag moves the cube in the playing scene, with no undo step (Stop offers to keep it).
	f.d.PlayMode().Start()
	f.ui.frames(2, f.build)
	if f.st.Gizmo == ([2]int{}) {
		t.Fatal("no gizmo in play mode")
	}
	undos = f.d.History().Undos()
	before := f.d.World().WorldMatrix(f.cubes[1]).Col(3).Vec3()
	gx, gy = float32(f.st.Gizmo[0]), float32(f.st.Gizmo[1])
	f.ui.drag(gx, gy, gx+60, gy, f.build)
	f.d.World().PropagateTransforms()
	if pos := f.d.World().WorldMatrix(f.cubes[1]).Col(3).Vec3(); pos.X() < before.X()+0.5 || f.d.History().Undos() != undos {
		t.Fatalf("a drag while playing: position %v (from %v), %d undo steps (want %d)", pos, before, f.d.History().Undos(), undos)
	}
	if ch := f.d.PlayMode().Stop(); len(ch.Changes) == 0 || !ch.Changes[0].User {
		t.Fatalf("the drag while playing is not the user's change: %+v", ch)
	}
}

func TestViewportWithoutRenderer(t *testing.T) {
	ui := newUIContext(t)
	d := doc.New("V", doc.Options{})
	st := &probe.State{}
	v := newViewportPanel(d, &fakeViewportHost{}, assets.NewRegistry(".", assets.DefaultLimits()),
		func() (viewport.Renderer, error) { return nil, errors.New("no OpenGL 4.1") }, NewConsole(5), st)
	v.setDoc(d, false)
	ui.frames(3, func() { inWindow(panelViewport, 0, 0, 400, 300, v.Build) })
	if v.r != nil || v.initErr == nil || st.Viewport.W == 0 {
		t.Fatal("a renderer that cannot start must leave the panel with its message")
	}
}

// TestViewportKeysWorkOverTheGizmo: F, W, E, R and X work with the mouse on the selected entity's gizmo (F pressed
// with the mouse where the selected cube is frames it), although the viewport is not "hovered" there (a click there
// drags the gizmo, it does not pick): the keys follow the mouse over the image.
func TestViewportKeysWorkOverTheGizmo(t *testing.T) {
	f := newVPFixture(t)
	f.d.Selection().Select(f.cubes[1])
	f.ui.frames(2, f.build)
	if f.st.Gizmo == ([2]int{}) {
		t.Fatal("no gizmo on the selected cube")
	}
	gx, gy := float32(f.st.Gizmo[0]), float32(f.st.Gizmo[1])
	f.ui.move(gx, gy, f.build)
	f.ui.frames(2, f.build)
	if f.v.area.hovered {
		t.Fatal("over the gizmo the viewport picks and drags the camera: the test does not put the mouse on the gizmo")
	}
	if !f.v.area.overImage {
		t.Error("over the gizmo the viewport's keys do not work")
	}
	f.ui.move(gx+2000, gy, f.build) // outside the viewport
	f.ui.frames(2, f.build)
	if f.v.area.overImage {
		t.Error("outside the viewport its keys work")
	}
}

// TestViewportThinsOnlyWhileTheViewMoves: the panel asks for thinned pictures (DrawOptions.Interactive) only while
// the camera moves; in play mode and during a gizmo drag, where the scene changes from frame to frame, it asks for
// complete ones, finished before the next is begun (DrawOptions.Changing).
func TestViewportThinsOnlyWhileTheViewMoves(t *testing.T) {
	f := newVPFixture(t)
	count := func() (interactive, changing int) {
		for _, o := range f.r.opts {
			if o.Interactive {
				interactive++
			}
			if o.Changing {
				changing++
			}
		}
		f.r.opts = nil
		return interactive, changing
	}
	f.d.PlayMode().Start()
	for range 6 {
		f.d.PlayMode().Tick(1.0 / 60)
		f.ui.frame(f.build)
	}
	if i, c := count(); i != 0 || c == 0 {
		t.Errorf("play mode: %d thinned pictures asked for, %d of a changing scene; want none and some", i, c)
	}
	f.d.PlayMode().Stop()
	f.d.Selection().Select(f.cubes[1])
	f.ui.frames(3, f.build)
	count()
	gx, gy := float32(f.st.Gizmo[0]), float32(f.st.Gizmo[1])
	f.ui.drag(gx, gy, gx+80, gy, f.build)
	if i, c := count(); i != 0 || c == 0 {
		t.Errorf("a gizmo drag: %d thinned pictures asked for, %d of a changing scene; want none and some", i, c)
	}
	f.ui.move(400, 300, f.build)
	f.ui.press(imgui.MouseButtonMiddle, true, f.build)
	for i := 1; i <= 5; i++ {
		f.ui.move(400+float32(20*i), 300, f.build)
	}
	f.ui.press(imgui.MouseButtonMiddle, false, f.build)
	if i, _ := count(); i == 0 {
		t.Error("an orbit asked for no thinned picture")
	}
}

// TestViewportShowsDrawingOfANewScene: while the picture of a newly shown scene is drawn over several frames, the
// viewport, which has no picture of that scene yet, says so over the last picture ("Drawing 10,000 entities…" with
// the progress); once the picture is there, and while a later change of the same scene is drawn, it says nothing.
func TestViewportShowsDrawingOfANewScene(t *testing.T) {
	f := newVPFixture(t)
	f.r.steps = 4
	if f.st.Picture.Drawing != "" {
		t.Fatalf("a viewport with its picture says %q", f.st.Picture.Drawing)
	}
	big := doc.New("Big", doc.Options{})
	p := scene.DefaultGrid()
	p.Count = [3]int{100, 1, 100}
	if _, _, err := big.SpawnGrid(context.Background(), p, nil); err != nil {
		t.Fatal(err)
	}
	f.v.setDoc(big, true)
	var seen []string
	for range 10 {
		f.ui.frame(f.build)
		if !f.v.pic.pending {
			break
		}
		seen = append(seen, f.st.Picture.Drawing)
	}
	if f.v.pic.pending {
		t.Fatal("the picture was never completed")
	}
	want := []string{"Drawing 10,000 entities… 25 %", "Drawing 10,000 entities… 50 %", "Drawing 10,000 entities… 75 %"}
	if !slices.Equal(seen, want) {
		t.Fatalf("while the picture of the new scene was drawn the viewport said %q, want %q", seen, want)
	}
	if f.st.Picture.Drawing != "" {
		t.Fatalf("with the picture complete the viewport says %q", f.st.Picture.Drawing)
	}
	// A change of the scene on screen: its last picture stays until the new one is complete, without a word.
	if _, err := big.SpawnCube(ecs.Entity{}); err != nil {
		t.Fatal(err)
	}
	for range 4 {
		f.ui.frame(f.build)
		if f.st.Picture.Drawing != "" {
			t.Fatalf("a change of the scene on screen: the viewport says %q", f.st.Picture.Drawing)
		}
	}
}

// TestPictureStepsBetweenFrames: a picture drawn over several calls goes on outside the frames while nothing moves
// (stepBetweenFrames), and the next frame shows it without drawing again; while the view is dragged it does not.
func TestPictureStepsBetweenFrames(t *testing.T) {
	f := newVPFixture(t)
	f.r.steps = 5
	if _, err := f.d.SpawnCube(ecs.Entity{}); err != nil {
		t.Fatal(err)
	}
	f.ui.frame(f.build)
	if !f.v.pic.pending {
		t.Fatal("a change drawn over five calls is not pending after a frame")
	}
	renders, pictures := f.r.renders, f.v.pictures()
	steps := 0
	for f.v.stepBetweenFrames(drawBudget) {
		steps++
	}
	if f.v.pic.pending || f.r.renders != renders+1 || steps != 3 || f.v.pictures() == pictures {
		t.Fatalf("between frames: %d steps more, pending %v, %d renders (%d before); want 3, done, one render",
			steps, f.v.pic.pending, f.r.renders, renders)
	}
	if f.v.firstPicture() {
		t.Error("a change of the scene on screen counted as its first picture")
	}
	calls := f.r.drawing.calls
	f.ui.frames(2, f.build)
	if f.r.renders != renders+1 || f.r.drawing.calls != calls || f.v.pic.pending {
		t.Fatalf("the frames after it drew again: %d renders, %d calls (want %d and %d)", f.r.renders,
			f.r.drawing.calls, renders+1, calls)
	}
	if f.v.stepBetweenFrames(drawBudget) {
		t.Error("with nothing to draw a step between frames said more was to come")
	}

	// While the view is orbited nothing is drawn between frames: the frames draw thinned pictures.
	if _, err := f.d.SpawnCube(ecs.Entity{}); err != nil {
		t.Fatal(err)
	}
	f.ui.move(400, 300, f.build)
	f.ui.press(imgui.MouseButtonMiddle, true, f.build)
	f.ui.move(420, 300, f.build)
	calls = f.r.drawing.calls
	if f.v.ctl.Mode() == viewport.ModeNone {
		t.Fatal("a middle drag did not orbit")
	}
	if f.v.stepBetweenFrames(drawBudget) || f.r.drawing.calls != calls {
		t.Error("a picture was drawn between frames while the view was orbited")
	}
	f.ui.press(imgui.MouseButtonMiddle, false, f.build)
}

// A big world's draw list is built after the frame that shows its panels: that frame says it is being drawn and
// builds nothing; the list is built between frames (or, when no step came, in the next frame), and the frames
// after draw it. A small world's is built in its first frame.
func TestBigWorldListBuiltAfterItsFirstFrame(t *testing.T) {
	old := deferBuildMin
	defer func() { deferBuildMin = old }()
	deferBuildMin = 20
	big := func() *doc.Document {
		d := doc.New("W", doc.Options{})
		for range 30 {
			if _, err := d.SpawnCube(ecs.Entity{}); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	for _, between := range []bool{true, false} {
		t.Run(fmt.Sprint("between ", between), func(t *testing.T) { checkDeferredBuild(t, big(), between) })
	}
	deferBuildMin = 1000
	t.Run("small", func(t *testing.T) {
		f := newVPFixture(t)
		f.v.setDoc(big(), false)
		f.ui.frame(f.build)
		if n := f.v.scene.builder.DrawList().Len(); n != 30 {
			t.Fatalf("a small world's first frame built %d instances, want 30", n)
		}
	})
}

// checkDeferredBuild shows d (30 cubes, a big world) in a new viewport: its first frame, a step between frames
// (if between), three frames.
func checkDeferredBuild(t *testing.T, d *doc.Document, between bool) {
	f := newVPFixture(t)
	calls, pictures := f.r.drawing.calls, f.v.pictures()
	f.v.setDoc(d, true)
	f.ui.frame(f.build)
	if n := f.v.scene.builder.DrawList().Len(); n != 0 || !f.v.scene.deferred || f.r.drawing.calls != calls {
		t.Fatalf("the first frame built %d instances (deferred %v) and drew %d times", n, f.v.scene.deferred, f.r.drawing.calls-calls)
	}
	if got := f.st.Picture.Drawing; got != "Drawing 30 entities… 0 %" {
		t.Fatalf("the first frame says %q", got)
	}
	if between {
		if f.v.stepBetweenFrames(drawBudget) || f.v.scene.builder.DrawList().Len() != 30 {
			t.Fatalf("between frames: %d instances built", f.v.scene.builder.DrawList().Len())
		}
	}
	f.ui.frames(3, f.build)
	if n := f.v.scene.builder.DrawList().Len(); n != 30 || f.v.scene.deferred || f.v.pictures() == pictures {
		t.Fatalf("step between %v: after three frames %d instances, deferred %v, %d pictures", between, n,
			f.v.scene.deferred, f.v.pictures())
	}
}
