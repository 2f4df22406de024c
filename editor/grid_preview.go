package editor

import (
	"context"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/doc"
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

// gridPreview is the grid dialog's live preview in the background: what the viewport shows (previewState), the
// worker computing the next one and its result, the copy of the scene it reads, the spawn made ready for the values
// shown (readyGrid), and the edits it counts for the probe.
type gridPreview struct {
	state      previewState
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

// stop cancels the preview work.
func (pv *gridPreview) stop() {
	if pv.worker != nil {
		pv.worker.cancel()
		pv.worker = nil
	}
	pv.result = nil
	pv.ready.stop()
	pv.ready = nil
}

// countEdit notes a frame in which a value changed (the scene staying the same), and whether the viewport rendered
// in it (renders is its count of renders; the probe's Edits and EditRenders). mark, if not nil, times the edit.
func (pv *gridPreview) countEdit(k previewKey, now time.Time, renders uint64, mark func(what string)) {
	rendered := renders != pv.renders
	pv.renders = renders
	if k.sceneVer == pv.lastKey.sceneVer && k.world == pv.lastKey.world && k != pv.lastKey {
		pv.edits++
		if mark != nil {
			mark("grid edit") // a value typed or dragged: timed from the frame that handled it (make bench-ui)
		}
		if rendered {
			pv.editRender++
		}
		pv.lastChange = now
		pv.changing = true
	}
	pv.lastKey = k
}

// collect takes the preview worker's result when it is done; a worker (or result) for other values, or any in
// play mode, is dropped.
func (pv *gridPreview) collect(k previewKey, playing bool) {
	if pv.worker != nil && (pv.worker.key != k || playing) {
		pv.worker.cancel()
		pv.worker = nil
	}
	if pv.worker != nil {
		select {
		case r := <-pv.worker.out:
			r.key = pv.worker.key
			pv.result, pv.worker = &r, nil
		default:
		}
	}
	if pv.result != nil && pv.result.key != k {
		pv.result = nil
	}
}

// idle reports whether a preview may be started: none is shown for the current values, computed or being computed.
func (pv *gridPreview) idle() bool {
	return !pv.state.current() && pv.worker == nil && pv.result == nil
}

// start computes the preview for the values k (the grid p of mesh, or of shape for copies) on a worker, from a copy
// of the scene list sl of world w made again when the scene changed.
func (pv *gridPreview) start(k previewKey, p scene.GridParams, sl *viewport.DrawList, w *ecs.World, mesh *assets.Mesh, shape []shapeMesh) {
	if pv.snap == nil || pv.snap.version != k.sceneVer || pv.snap.world != k.world {
		pv.snap = snapshotOf(sl, w)
	}
	pv.worker = startPreview(k, pv.snap, p, mesh, shape)
}

// show shows the computed preview if it may be shown now (previewState.offer).
func (pv *gridPreview) show(k previewKey, editing bool) {
	if pv.result != nil && pv.state.offer(k, pv.result.list, pv.result.cubes, editing) {
		pv.result = nil
	}
}

// takeReady returns the spawn made ready for k if there is one (readyGrid.take), nil otherwise.
func (pv *gridPreview) takeReady(k readyKey) *doc.GridJob {
	if pv.ready != nil && pv.ready.key == k {
		return pv.ready.take()
	}
	return nil
}

// prepare keeps a readyGrid for the values p in the world w while want holds (the preview shows exactly these
// cubes, nobody is typing, not in play mode) and the grid is big enough for a background job: a new one (from
// h.PrepareGrid) when the values or the scene's world changed, none otherwise.
func (pv *gridPreview) prepare(p scene.GridParams, want bool, w *ecs.World, h gridHost) {
	k := readyKeyOf(p, w)
	if pv.ready != nil && (!want || pv.ready.key != k) {
		pv.ready.stop()
		pv.ready = nil
	}
	if !want || pv.ready != nil || p.Len() < workspace.JobThreshold {
		return
	}
	j, delay, err := h.PrepareGrid(p)
	if err != nil {
		return // Spawn reports it
	}
	pv.ready = startReady(k, j, delay)
}

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

// readyAfter is how long the values must stay as they are, their preview shown, before the dialog makes their spawn
// ready (readyGrid): typing a count makes none for each digit, and a user who starts typing soon after the preview
// shows does not type beside it (it would take part of the two cores for a frame or two).
const readyAfter = time.Second

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
