package editor

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/probe"
	"github.com/voltex-editor/voltex/editor/settings"
	"github.com/voltex-editor/voltex/editor/workspace"
	"github.com/voltex-editor/voltex/viewport"
)

// previewIDBase offsets preview instances' ids so they never collide with real entities' ids.
const previewIDBase = 0x40000000

// Preview limits. The viewport draws at most maxPreview preview cubes (a bigger grid previews its first layers);
// while a field is being edited the cubes follow only if the whole preview list is at most livePreview instances
// (cheap to render) — otherwise the grid's outline follows and the cubes come when the field is left (Enter, Tab).
const (
	maxPreview  = 200_000
	livePreview = 5_000
)

// gridDialog is Entity → Spawn Cube Grid…: counts, spacing per axis, centre, mesh, a solid or gradient colour, an
// optional parent group and Spin. It is a tool window, not a modal dialog: the viewport can be orbited to look at
// the preview. Its values are remembered (for the session, and in the settings); the centre starts beside the
// scene's content (besideScene).
//
// The preview never holds up typing: the preview's draw list (the scene's instances plus the grid's) is computed
// on a background goroutine from plain data (scene.GridParams.Cube, a copy of the scene's instances), and a big
// preview replaces the viewport's picture only when no field is being edited, because rendering it can take a
// long frame; meanwhile the grid's outline is drawn over the viewport, which costs nothing. Spawn runs
// doc.PrepareGrid / GridJob.Run (a background job from workspace.JobThreshold cubes, with progress and Cancel) /
// doc.FinishGrid on the loop thread: ONE undoable step.
type gridDialog struct {
	host   gridHost
	view   gridView
	meshes meshes
	probe  *probe.State
	mark   func(what string) // times a value edit for the probe (workspace.Jobs.MarkNow); nil: not timed

	count    [3]int32
	spacing  [3]float32
	centre   [3]float32
	mesh     string
	gradient bool
	from, to [4]float32
	group    bool
	name     string
	spin     bool
	speed    float32
	src      gridSource // what is repeated (cubes, the selected entity, a prefab) and the per-copy steps (gridsource.go)

	autoPlace bool          // the centre stays beside the scene's content until the user sets it
	placedFor [3]mgl32.Vec3 // the size and scene bounds the centre was placed for
	eye       mgl32.Vec3    // the camera's eye when the grid was first placed (the side it goes on)
	opened    bool          // the window was shown once
	closed    bool          // Spawn, Cancel or close pressed
	focus     bool          // give the first field the keyboard next frame
	active    bool          // an item was active at the end of the last frame
	focused   bool          // the dialog had the keyboard focus at the end of the last frame
	err       string        // what is wrong with the values
	fields    map[string]probe.Rect

	prev       previewState
	ready      *readyGrid // the spawn of the previewed values, made ready in the background
	worker     *previewWorker
	result     *previewResult // computed for result.key, not shown yet
	snap       *sceneSnapshot
	lastKey    previewKey // the values of the last frame
	lastChange time.Time
	changing   bool   // a value changed since the active field became active
	renders    uint64 // viewport renders at the last frame
	edits      uint64 // frames in which a value changed
	editRender uint64 // … and the viewport rendered
}

// gridHost is what the grid dialog needs of the editor: Spawn, remembering its values, play mode.
type gridHost interface {
	gridCopies // grids of an entity or a prefab (gridsource.go)
	// SpawnGrid spawns the grid p; ready, if not nil, is its job already run (readyGrid).
	SpawnGrid(p scene.GridParams, preview *viewport.DrawList, ready *doc.GridJob)
	// PrepareGrid is doc.PrepareGrid on the open document, with the pause background jobs make after each step
	// (Options.JobStepDelay: e2e tests only, 0 otherwise).
	PrepareGrid(p scene.GridParams) (*doc.GridJob, time.Duration, error)
	RememberGrid(v settings.Grid)
	Playing() bool
}

// gridView is the grid dialog's view of the viewport: the scene it places the grid beside, the camera (At pivot,
// Frame), where the image is, its renders, and the preview and outline it shows (viewportPanel implements it).
type gridView interface {
	sceneList() *viewport.DrawList
	sceneWorld() *ecs.World
	sceneVersion() uint64
	camera() *viewport.Camera
	aspect() float32
	corner() imgui.Vec2
	renders() uint64
	setPreview(list *viewport.DrawList, box *viewport.AABB)
}

// meshes are the meshes scenes can use (the asset registry).
type meshes interface {
	List() []string
	Mesh(ref string) (*assets.Mesh, error)
}

var _ g.Widget = (*gridDialog)(nil)

func newGridDialog(v settings.Grid, host gridHost, view gridView, ms meshes, pr *probe.State) *gridDialog {
	d := &gridDialog{host: host, view: view, meshes: ms, probe: pr, mesh: v.Mesh, gradient: v.Gradient, from: v.From, to: v.To, group: v.Group, name: v.GroupName,
		spin: v.Spin, speed: v.Speed, spacing: v.Spacing, autoPlace: true, focus: true, fields: map[string]probe.Rect{},
		src: newGridSource()}
	for i, n := range v.Count {
		d.count[i] = int32(n)
	}
	if d.mesh == "" {
		d.mesh = scene.MeshCube
	}
	return d
}

// values returns what the dialog remembers.
func (d *gridDialog) values() settings.Grid {
	return settings.Grid{Count: [3]int{int(d.count[0]), int(d.count[1]), int(d.count[2])}, Spacing: d.spacing,
		Mesh: d.mesh, Gradient: d.gradient, From: d.from, To: d.to, Group: d.group, GroupName: d.name,
		Spin: d.spin, Speed: d.speed}
}

// params returns the grid the dialog describes.
func (d *gridDialog) params() scene.GridParams {
	p := scene.GridParams{
		Count:   [3]int{int(d.count[0]), int(d.count[1]), int(d.count[2])},
		Spacing: mgl32.Vec3(d.spacing), Origin: mgl32.Vec3(d.centre), Mesh: d.mesh,
		ColorFrom: d.from, ColorTo: d.to,
	}
	if !d.gradient {
		p.ColorTo = p.ColorFrom
	}
	if d.group {
		p.Group = d.name
		if p.Group == "" {
			p.Group = "Grid"
		}
	}
	if d.spin && d.src.kind == srcCubes {
		p.Spin = &scene.Spin{Axis: mgl32.Vec3{0, 1, 0}, Speed: d.speed}
	}
	p.RotationStep, p.ScaleStep = d.src.steps()
	return p
}

// gridBounds is the box the grid's cubes fill (unit cubes: half a unit around each centre).
func gridBounds(p scene.GridParams) viewport.AABB {
	var half mgl32.Vec3
	for i := range 3 {
		half[i] = float32(p.Count[i]-1)*abs32(p.Spacing[i])/2 + 0.5
	}
	return viewport.AABB{Min: p.Origin.Sub(half), Max: p.Origin.Add(half)}
}

func abs32(f float32) float32 { return float32(math.Abs(float64(f))) }

// previewKey says what a preview shows: the grid's parameters and the scene's draw-list version.
type previewKey struct {
	p        scene.GridParams
	src      string // what is copied ("" for cubes; see gridSource.key)
	spin     bool
	sceneVer uint64
	world    *ecs.World
}

func keyOf(p scene.GridParams, sceneVer uint64, w *ecs.World) previewKey {
	k := previewKey{p: p, sceneVer: sceneVer, world: w}
	if p.Spin != nil { // the pointer differs every frame; spin doesn't change the picture
		k.p.Spin, k.spin = nil, true
	}
	return k
}

// previewState decides, frame by frame, what the viewport shows of the grid being set up. Pure: tested without a
// window.
type previewState struct {
	want  previewKey // the values the dialog shows now
	shown previewKey // the values the cubes in the viewport are for
	have  bool       // cubes are shown
	list  *viewport.DrawList
	cubes int
}

// setWant records the dialog's current values.
func (s *previewState) setWant(k previewKey) { s.want = k }

// current reports whether the cubes shown are for the current values.
func (s *previewState) current() bool { return s.have && s.shown == s.want }

// offer is a computed preview for k with n instances in all (scene + grid); it is shown now if it is for the
// current values and either no field is being edited or it is cheap to render. It returns whether it was taken.
func (s *previewState) offer(k previewKey, list *viewport.DrawList, cubes int, editing bool) bool {
	if k != s.want || (editing && list.Len() > livePreview) {
		return false
	}
	s.shown, s.have, s.list, s.cubes = k, true, list, cubes
	return true
}

// mode is what the probe calls the preview: "cubes" (current), "box" (outline only), "".
func (s *previewState) mode(valid bool) string {
	switch {
	case s.current():
		return "cubes"
	case valid:
		return "box"
	}
	return ""
}

// sceneSnapshot is a copy of the scene's draw list made on the loop thread, for a preview worker to read.
type sceneSnapshot struct {
	version uint64
	world   *ecs.World
	batches []snapBatch
	n       int
	bounds  viewport.AABB
}

type snapBatch struct {
	ref       string
	mesh      *assets.Mesh
	instances []viewport.Instance
}

func snapshotOf(dl *viewport.DrawList, w *ecs.World) *sceneSnapshot {
	s := &sceneSnapshot{version: dl.Version(), world: w, bounds: dl.Bounds()}
	for _, b := range dl.Batches() {
		if b.Len() == 0 {
			continue
		}
		s.batches = append(s.batches, snapBatch{ref: b.Ref, mesh: b.Mesh, instances: b.AppendInstances(make([]viewport.Instance, 0, b.Len()))}) // exactly: a million are 88 MB
		s.n += b.Len()
	}
	return s
}

// previewList builds the preview's draw list: the scene's instances, then the grid's first cubes (at most limit)
// drawn selected, with ids from previewIDBase. It checks ctx every few thousand instances and returns nil when
// it is cancelled. It touches only its arguments, so it runs on any goroutine.
func previewList(ctx context.Context, snap *sceneSnapshot, p scene.GridParams, mesh *assets.Mesh, shape []shapeMesh, limit int) (*viewport.DrawList, int) {
	dl := viewport.NewDrawList()
	const check = 4096
	k := 0
	for _, b := range snap.batches {
		dl.SetMesh(b.ref, b.mesh)
		for _, in := range b.instances {
			if k++; k%check == 0 && ctx.Err() != nil {
				return nil, 0
			}
			dl.Set(b.ref, in)
		}
	}
	if shape != nil { // copies of an entity or a prefab (gridsource.go)
		n := previewShapes(ctx, dl, p, shape, limit)
		if n < 0 {
			return nil, 0
		}
		return dl, n
	}
	ref := p.Mesh
	if ref == "" {
		ref = scene.MeshCube
	}
	dl.SetMesh(ref, mesh)
	n := min(p.Len(), limit)
	var base mgl32.Vec3
	if p.Group != "" {
		base = p.Origin
	}
	for i := range n {
		if i%check == 0 && ctx.Err() != nil {
			return nil, 0
		}
		pos, rgba := p.Cube(i)
		m := mgl32.Translate3D(base[0]+pos[0], base[1]+pos[1], base[2]+pos[2])
		if p.RotationStep != (mgl32.Vec3{}) || p.ScaleStep != (mgl32.Vec3{}) {
			t := p.Transform(i)
			t.Position = pos.Add(base)
			m = t.Matrix()
		}
		dl.Set(ref, viewport.Instance{World: m, Color: rgba, ID: previewIDBase + uint32(i) + 1, Flags: viewport.FlagSelected})
	}
	return dl, n
}

// previewWorker computes one preview on a goroutine of its own.
type previewWorker struct {
	key    previewKey
	cancel context.CancelFunc
	out    chan previewResult
}

type previewResult struct {
	list  *viewport.DrawList
	cubes int
	key   previewKey
}

func startPreview(k previewKey, snap *sceneSnapshot, p scene.GridParams, mesh *assets.Mesh, shape []shapeMesh) *previewWorker {
	ctx, cancel := context.WithCancel(context.Background())
	w := &previewWorker{key: k, cancel: cancel, out: make(chan previewResult, 1)}
	go func() {
		dl, n := previewList(ctx, snap, p, mesh, shape, maxPreview)
		if dl != nil {
			w.out <- previewResult{list: dl, cubes: n}
			wakeLoop()
		}
	}()
	return w
}

// stop cancels the dialog's preview work.
func (d *gridDialog) stop() {
	if d.worker != nil {
		d.worker.cancel()
		d.worker = nil
	}
	d.result = nil
	d.ready.stop()
	d.ready = nil
}

// place puts the centre beside the scene's content while autoPlace holds, again whenever the grid's size or the
// content's extent changed.
func (d *gridDialog) place() {
	sl := d.view.sceneList()
	if !d.autoPlace || sl == nil {
		return
	}
	p := d.params()
	b := sl.Bounds()
	key := [3]mgl32.Vec3{gridBounds(p).Size(), b.Min, b.Max}
	if d.opened && key == d.placedFor {
		return
	}
	if d.placedFor == ([3]mgl32.Vec3{}) && !b.IsEmpty() {
		d.eye = d.view.camera().Eye() // the side is chosen once; orbiting does not move the grid
	}
	d.placedFor = key
	if p.Validate() == nil {
		o := p
		o.Origin = mgl32.Vec3{}
		d.centre = workspace.BesideScene(b, gridBounds(o), d.eye)
	}
}

// field records the last item's rectangle for the probe under name.
func (d *gridDialog) field(name string) {
	d.fields[name] = rectOf(imgui.ItemRectMin(), imgui.ItemRectSize())
}

// Build draws the dialog (until it is closed: see done).
func (d *gridDialog) Build() {
	if !d.closed {
		d.closed = !d.build()
	}
}

// done reports whether the dialog was closed (Spawn, Cancel, Escape, its close button).
func (d *gridDialog) done() bool { return d.closed }

// build draws the dialog; false when it is closed.
func (d *gridDialog) build() bool {
	if !d.opened {
		d.place()
		d.opened = true
		if id := d.host.ActiveID(); id != 0 { // "Selected entity" copies what was selected when the dialog opened
			d.src.entity = id
		}
		imgui.SetNextWindowFocus()
		imgui.SetNextWindowPosV(imgui.Vec2{X: d.view.corner().X + 16, Y: d.view.corner().Y + 16}, imgui.CondAlways, imgui.Vec2{})
	}
	// Enter and Escape are taken before the window is built: built first, the field that has the keyboard
	// focus would take Enter as "edit me" and keep the keyboard after the dialog is gone, and a window begun
	// without its fields would show empty for the (long) frame of a big spawn. While a value is being typed,
	// Enter commits it (the preview then shows it) and Escape reverts it; a field that merely has the keyboard
	// (the first one, when the dialog opens) does not keep Enter from spawning.
	keys := d.focused && !(d.active && d.changing)
	spawn := keys && d.err == "" && (imgui.IsKeyPressedBool(imgui.KeyEnter) || imgui.IsKeyPressedBool(imgui.KeyKeypadEnter))
	cancel := keys && imgui.IsKeyPressedBool(imgui.KeyEscape)
	if !spawn && !cancel {
		open := true
		flags := imgui.WindowFlagsAlwaysAutoResize | imgui.WindowFlagsNoCollapse | imgui.WindowFlagsNoDocking | imgui.WindowFlagsNoSavedSettings
		if imgui.BeginV(d.src.title(d.host), &open, flags) && open {
			d.fields["window"] = rectOf(imgui.WindowPos(), imgui.WindowSize())
			spawn, cancel = d.buildFields()
			spawn = spawn && d.err == ""
		}
		cancel = cancel || !open
		d.focused = imgui.IsWindowFocusedV(imgui.FocusedFlagsRootAndChildWindows)
		d.active = imgui.IsAnyItemActive()
		imgui.End()
	}
	p := d.params()
	if spawn || cancel {
		imgui.InternalClearActiveID()          // no field of the closed dialog keeps the keyboard
		imgui.SetWindowFocusStr(panelViewport) // the keyboard goes back to the viewport, where the result shows
	}
	if spawn {
		var ready *doc.GridJob // taken before close drops it
		if d.ready != nil && d.ready.key == readyKeyOf(p, d.view.sceneWorld()) {
			ready = d.ready.take()
		}
		d.close()
		if src, ok := d.src.source(d.host); ok {
			d.host.SpawnCopies(p, src)
			return false
		}
		var keep *viewport.DrawList
		if d.prev.current() && d.prev.cubes == p.Len() {
			keep = d.prev.list // exactly what the spawn makes: shown until the cubes are in the scene
		}
		d.host.SpawnGrid(p, keep, ready)
		return false
	}
	if cancel {
		d.close()
		return false
	}
	d.updatePreview(p)
	return true
}

// buildFields draws the fields and buttons; it returns whether Spawn or Cancel was pressed.
func (d *gridDialog) buildFields() (spawn, cancel bool) {
	d.src.build(d.host, gridFieldWidth, d.field) // before the focus: the keyboard goes to Count, as before
	if d.focus {
		imgui.SetKeyboardFocusHere()
		d.focus = false
	}
	d.buildShape()
	d.src.buildSteps(gridFieldWidth, d.field)
	d.buildPlacement()
	if d.src.kind == srcCubes {
		d.buildLook()
	} else { // the copies keep their own looks
		imgui.Checkbox("Parent group", &d.group)
		if d.group {
			imgui.SameLine()
			imgui.SetNextItemWidth(150)
			imgui.InputTextWithHint("##groupname", "group name", &d.name, 0, nil)
		}
	}
	d.place() // the size may have changed
	p := d.params()
	d.err = ""
	if err := p.Validate(); err != nil {
		d.err = err.Error()
	} else if _, ok := d.src.source(d.host); !ok && d.src.kind != srcCubes {
		d.err = "choose what to copy"
	}
	imgui.Separator()
	d.buildSummary(p)
	imgui.BeginDisabledV(d.err != "")
	spawn = imgui.ButtonV("Spawn", imgui.Vec2{X: 110})
	d.field("spawn")
	imgui.EndDisabled()
	imgui.SameLine()
	cancel = imgui.ButtonV("Cancel", imgui.Vec2{X: 110})
	d.field("cancel")
	return spawn, cancel
}

// gridFieldWidth is the width of the dialog's vector fields.
const gridFieldWidth = 240

// buildShape draws the counts and the spacing.
func (d *gridDialog) buildShape() {
	imgui.SetNextItemWidth(gridFieldWidth)
	imgui.DragInt3V("Count X/Y/Z", &d.count, 0.2, 1, settings.MaxGridCount, "%d", imgui.SliderFlagsAlwaysClamp)
	d.field("count")
	imgui.SetNextItemWidth(gridFieldWidth)
	imgui.DragFloat3V("Spacing", &d.spacing, 0.05, settings.MinGridSpacing, settings.MaxGridSpacing, "%.2f", imgui.SliderFlagsAlwaysClamp)
	d.field("spacing")
}

// buildPlacement draws the centre and the buttons that place it (beside the scene, at the pivot, at the origin)
// or point the view at the grid (Frame).
func (d *gridDialog) buildPlacement() {
	imgui.SetNextItemWidth(gridFieldWidth)
	if imgui.DragFloat3V("Centre", &d.centre, 0.1, -1e5, 1e5, "%.2f", imgui.SliderFlagsAlwaysClamp) {
		d.autoPlace = false
	}
	d.field("centre")
	const centreHelp = "Where the middle of the grid goes (world position): the grid extends half its size on each side\n" +
		"of it — it is the centre, not a corner. A new grid starts beside what the scene already holds,\n" +
		"so it never lands on it; \"At pivot\" puts it where the view looks instead."
	if imgui.IsItemHovered() {
		tooltip(centreHelp)
	}
	imgui.SameLine()
	textDisabled("(?)")
	if imgui.IsItemHovered() {
		tooltip(centreHelp)
	}
	if imgui.SmallButton("Beside scene") {
		d.autoPlace, d.placedFor = true, [3]mgl32.Vec3{}
		d.place()
	}
	imgui.SameLine()
	if imgui.SmallButton("At pivot") {
		d.autoPlace, d.centre = false, d.view.camera().Pivot
	}
	imgui.SameLine()
	if imgui.SmallButton("At origin") {
		d.autoPlace, d.centre = false, [3]float32{}
	}
	imgui.SameLine()
	if sl := d.view.sceneList(); imgui.SmallButton("Frame") && sl != nil {
		d.view.camera().Frame(sl.Bounds().Union(gridBounds(d.params())), d.view.aspect())
	}
	if imgui.IsItemHovered() {
		tooltip("Point the view at the scene and the new grid together")
	}
}

// buildLook draws the mesh, the colours, the parent group and Spin.
func (d *gridDialog) buildLook() {
	imgui.SetNextItemWidth(gridFieldWidth)
	if imgui.BeginCombo("Mesh", d.mesh) {
		for _, m := range d.meshes.List() {
			if imgui.SelectableBoolV(m, m == d.mesh, 0, imgui.Vec2{}) {
				d.mesh = m
			}
		}
		imgui.EndCombo()
	}
	imgui.Checkbox("Gradient", &d.gradient)
	imgui.ColorEdit4V("Colour", &d.from, imgui.ColorEditFlagsNoInputs)
	if d.gradient {
		imgui.SameLine()
		imgui.ColorEdit4V("to", &d.to, imgui.ColorEditFlagsNoInputs)
	}
	imgui.Checkbox("Parent group", &d.group)
	if d.group {
		imgui.SameLine()
		imgui.SetNextItemWidth(150)
		imgui.InputTextWithHint("##groupname", "group name", &d.name, 0, nil)
	}
	imgui.Checkbox("Spin", &d.spin)
	if d.spin {
		imgui.SameLine()
		imgui.SetNextItemWidth(120)
		imgui.DragFloatV("deg/s", &d.speed, 1, -settings.MaxGridSpeed, settings.MaxGridSpeed, "%.0f", imgui.SliderFlagsAlwaysClamp)
	}
}

// buildSummary says how many cubes go where, and what is wrong or what the preview is doing.
func (d *gridDialog) buildSummary(p scene.GridParams) {
	where := "at the centre above"
	if d.autoPlace {
		where = "beside the scene"
	}
	text(fmt.Sprintf("%s, %s", d.src.copyWord(p.Len()), where))
	switch {
	case d.err != "":
		textColored(imgui.Vec4{X: 1, Y: 0.45, Z: 0.4, W: 1}, d.err)
	case !d.prev.current() && d.changing:
		textDisabled("outline shown; the cubes follow on Enter or a click outside the fields")
	case !d.prev.current() && !d.host.Playing():
		textDisabled("computing the preview…")
	}
}

// close ends the dialog: its preview work stops, its values are remembered.
func (d *gridDialog) close() {
	d.stop()
	d.view.setPreview(nil, nil)
	d.host.RememberGrid(d.values())
}

// updatePreview keeps the viewport's preview in step with the values: the outline at once, the cubes when they
// are computed (in the background) and may be shown (see previewState.offer).
func (d *gridDialog) updatePreview(p scene.GridParams) {
	now := time.Now()
	valid := d.err == ""
	k := keyOf(p, d.view.sceneVersion(), d.view.sceneWorld())
	k.src = d.src.key()
	d.countEdit(k, now)
	d.prev.setWant(k)
	playing := d.host.Playing()
	d.collect(k, playing)
	// Editing: a field is active and its value has changed since (a field that merely has the keyboard, as the
	// first one has when the dialog opens, lets a big preview show).
	d.changing = d.changing && imgui.IsAnyItemActive()
	editing := d.changing
	settled := !editing || now.Sub(d.lastChange) > 100*time.Millisecond
	if valid && !playing && settled {
		d.compute(k, p)
	}
	if d.result != nil && d.prev.offer(k, d.result.list, d.result.cubes, editing) {
		d.result = nil
	}
	d.prepare(p, valid && !playing && !editing && d.src.key() == "" && d.prev.current() &&
		now.Sub(d.lastChange) > readyAfter)
	list := d.prev.list
	if playing {
		list = nil // the play world animates: a preview made from the edit scene would hide it
	}
	var box *viewport.AABB
	if valid && !d.prev.current() {
		b := gridBounds(p)
		box = &b
	}
	d.view.setPreview(list, box)
	if d.probe != nil {
		d.probe.Grid = &probe.GridDialog{
			Title:   strings.TrimSuffix(d.src.titleStr, gridWindowID),
			Count:   [3]int{int(d.count[0]), int(d.count[1]), int(d.count[2])},
			Spacing: d.spacing, Centre: d.centre, Fields: d.fields, Typing: d.active && imgui.CurrentIO().WantTextInput(),
			Preview: d.prev.mode(valid), PreviewCubes: d.prev.cubes, Edits: d.edits, EditRenders: d.editRender,
			Ready: d.ready.isReady(),
		}
	}
}

// countEdit notes a frame in which a value changed (the scene staying the same), and whether the viewport rendered
// in it (the probe's Edits and EditRenders).
func (d *gridDialog) countEdit(k previewKey, now time.Time) {
	renders := d.view.renders()
	rendered := renders != d.renders
	d.renders = renders
	if k.sceneVer == d.lastKey.sceneVer && k.world == d.lastKey.world && k != d.lastKey {
		d.edits++
		if d.mark != nil {
			d.mark("grid edit") // a value typed or dragged: timed from the frame that handled it (make bench-ui)
		}
		if rendered {
			d.editRender++
		}
		d.lastChange = now
		d.changing = true
	}
	d.lastKey = k
}

// collect takes the preview worker's result when it is done; a worker (or result) for other values, or any in
// play mode, is dropped.
func (d *gridDialog) collect(k previewKey, playing bool) {
	if d.worker != nil && (d.worker.key != k || playing) {
		d.worker.cancel()
		d.worker = nil
	}
	if d.worker != nil {
		select {
		case r := <-d.worker.out:
			r.key = d.worker.key
			d.result, d.worker = &r, nil
		default:
		}
	}
	if d.result != nil && d.result.key != k {
		d.result = nil
	}
}

// readyAfter is how long the values must stay as they are, their preview shown, before the dialog makes their spawn
// ready (readyGrid): typing a count makes none for each digit, and a user who starts typing soon after the preview
// shows does not type beside it (it would take part of the two cores for a frame or two).
const readyAfter = time.Second

// prepare keeps a readyGrid for the values p while want holds (the preview shows exactly these cubes, nobody is
// typing, not in play mode) and the grid is big enough for a background job: a new one when the values or the
// scene's world changed, none otherwise.
func (d *gridDialog) prepare(p scene.GridParams, want bool) {
	k := readyKeyOf(p, d.view.sceneWorld())
	if d.ready != nil && (!want || d.ready.key != k) {
		d.ready.stop()
		d.ready = nil
	}
	if !want || d.ready != nil || p.Len() < workspace.JobThreshold {
		return
	}
	j, delay, err := d.host.PrepareGrid(p)
	if err != nil {
		return // Spawn reports it
	}
	d.ready = startReady(k, j, delay)
}

// readyGrid is the spawn of the values the preview shows, made ready while the user looks at the preview: the
// cubes planned and the world's table given room for them (doc.GridJob.Run, which makes an ecs.Room) on a
// goroutine of its own. Enter then only adds them (doc.FinishGrid on the loop thread): no job to wait for, and
// none of the table's new memory to fault in on the loop thread (for 100,000 cubes beside 100,000 about 46 MB; a
// page fault costs 13–35 µs on the project's machine). Values that change, a closed dialog or a cancelled one
// drop it: its memory is garbage then.
type readyGrid struct {
	key      readyKey
	job      *doc.GridJob
	cancel   context.CancelFunc
	done     chan error // Run's result (buffered)
	finished bool       // Run's result was received (into err)
	err      error
}

// readyKey is what a readyGrid was made for: the values (the spin's by value) and the world it goes into.
type readyKey struct {
	p     scene.GridParams
	spin  scene.Spin
	world *ecs.World
}

func readyKeyOf(p scene.GridParams, w *ecs.World) readyKey {
	k := readyKey{p: p, world: w}
	if p.Spin != nil {
		k.spin, k.p.Spin = *p.Spin, nil
	}
	return k
}

func startReady(k readyKey, j *doc.GridJob, delay time.Duration) *readyGrid {
	ctx, cancel := context.WithCancel(context.Background())
	r := &readyGrid{key: k, job: j, cancel: cancel, done: make(chan error, 1)}
	var progress func(done, total int64)
	if delay > 0 { // tests only: as slow as a background job of theirs (workspace.Jobs.Start)
		progress = func(done, total int64) {
			if done < total {
				select {
				case <-ctx.Done():
				case <-time.After(delay):
				}
			}
		}
	}
	go func() {
		r.done <- j.Run(ctx, progress)
		wakeLoop() // the probe tells it (GridDialog.Ready)
	}()
	return r
}

// take returns the job if its Run has completed without error (it is then the caller's), nil otherwise (and the
// running one is stopped): a spawn then runs its own job as before.
func (r *readyGrid) take() *doc.GridJob {
	if r.isReady() {
		j := r.job
		r.job = nil
		return j
	}
	r.stop()
	return nil
}

// isReady reports whether the job has run to completion (a nil readyGrid is not ready). It keeps Run's result
// for take.
func (r *readyGrid) isReady() bool {
	if r == nil || r.job == nil {
		return false
	}
	if r.err == nil && !r.finished {
		select {
		case r.err = <-r.done:
			r.finished = true
		default:
		}
	}
	return r.finished && r.err == nil
}

// stop cancels the job if it still runs. A nil readyGrid does nothing.
func (r *readyGrid) stop() {
	if r != nil {
		r.cancel()
	}
}

// compute starts a preview worker for the values k unless the preview shown is for them or one is being computed.
func (d *gridDialog) compute(k previewKey, p scene.GridParams) {
	sl := d.view.sceneList()
	if d.prev.current() || d.worker != nil || d.result != nil || sl == nil {
		return
	}
	if d.snap == nil || d.snap.version != k.sceneVer || d.snap.world != k.world {
		d.snap = snapshotOf(sl, d.view.sceneWorld())
	}
	ref := p.Mesh
	if ref == "" {
		ref = scene.MeshCube
	}
	mesh, _ := d.meshes.Mesh(ref)
	d.worker = startPreview(k, d.snap, p, mesh, d.src.shapeFor(d.host, d.meshes, k.sceneVer))
}
