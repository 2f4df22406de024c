package ecs

import (
	"math"
	"reflect"
	"runtime"
	"sync"

	"github.com/go-gl/mathgl/mgl32"
)

// Transform is an entity's local transform relative to its parent (or the world for roots):
// position, Euler rotation in degrees and scale. Its default scale is {1,1,1}.
type Transform struct {
	Position mgl32.Vec3 `json:"position"`
	Rotation mgl32.Vec3 `json:"rotation" voltex:"degrees"`
	Scale    mgl32.Vec3 `json:"scale"`
}

// Default returns the identity transform (scale 1).
func (Transform) Default() Transform { return Transform{Scale: mgl32.Vec3{1, 1, 1}} }

// Matrix returns the local matrix T·Ry·Rx·Rz·S (rotation angles in degrees).
func (t Transform) Matrix() mgl32.Mat4 {
	if p, s := t.Position, t.Scale; t.Rotation == (mgl32.Vec3{}) && finite(p[0]) && finite(p[1]) && finite(p[2]) &&
		finite(s[0]) && finite(s[1]) && finite(s[2]) && s[0] != 0 && s[1] != 0 && s[2] != 0 {
		// Unrotated (most entities): the product's own bits without its multiplications and sines — its zeros are
		// all +0, and -0 + 0 is 0 (TestUnrotatedMatrixIsTheProduct).
		return mgl32.Mat4{s[0], 0, 0, 0, 0, s[1], 0, 0, 0, 0, s[2], 0, p[0] + 0, p[1] + 0, p[2] + 0, 1}
	}
	m := mgl32.Translate3D(t.Position[0], t.Position[1], t.Position[2])
	m = m.Mul4(mgl32.HomogRotate3DY(mgl32.DegToRad(t.Rotation[1])))
	m = m.Mul4(mgl32.HomogRotate3DX(mgl32.DegToRad(t.Rotation[0])))
	m = m.Mul4(mgl32.HomogRotate3DZ(mgl32.DegToRad(t.Rotation[2])))
	return m.Mul4(mgl32.Scale3D(t.Scale[0], t.Scale[1], t.Scale[2]))
}

func finite(f float32) bool { return f-f == 0 }

// TransformFromMatrix returns the Transform whose [Transform.Matrix] is m, for a matrix built as
// T·Ry·Rx·Rz·S; ok is false when m has no such form (a zero or non-finite scale axis, a non-finite
// translation). Shear, which a rotated child of a non-uniformly scaled parent can have, is dropped;
// a mirroring matrix (negative determinant) gets a negative X scale.
//
// A rotation has several Euler angle triples (each angle may also change by whole turns): the one
// returned is the closest to near, so passing an entity's current rotation keeps its angles as
// continuous as the rotation (a 10° turn of an entity at yaw 175° gives 185°, not -175°); pass the
// zero vector for angles as small as possible, each in (-180, 180]. At gimbal lock (X at ±90°, where only the
// sum or difference of Y and Z is defined) Z keeps near's value and Y takes the rest. The result
// never holds -0 (a file or an inspector would show it as "-0").
func TransformFromMatrix(m mgl32.Mat4, near mgl32.Vec3) (t Transform, ok bool) {
	col := func(c int) [3]float64 {
		return [3]float64{float64(m[c*4]), float64(m[c*4+1]), float64(m[c*4+2])}
	}
	c := [3][3]float64{col(0), col(1), col(2)}
	var s [3]float64
	for i := range c {
		s[i] = math.Sqrt(c[i][0]*c[i][0] + c[i][1]*c[i][1] + c[i][2]*c[i][2])
		if !(s[i] >= 1e-12) || math.IsInf(s[i], 0) { // also NaN
			return Transform{}, false
		}
	}
	for _, f := range m[12:15] {
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return Transform{}, false
		}
	}
	det := c[0][0]*(c[1][1]*c[2][2]-c[1][2]*c[2][1]) - c[1][0]*(c[0][1]*c[2][2]-c[0][2]*c[2][1]) +
		c[2][0]*(c[0][1]*c[1][2]-c[0][2]*c[1][1])
	if det < 0 {
		s[0] = -s[0]
	}
	// r[row][col] is the rotation: column i of the matrix divided by its scale. For R = Ry·Rx·Rz:
	// r[1][2] = -sin x, r[1][0] = cos x sin z, r[1][1] = cos x cos z, r[0][2] = sin y cos x,
	// r[2][2] = cos y cos x.
	var r [3][3]float64
	for i := range 3 {
		for j := range 3 {
			r[j][i] = c[i][j] / s[i]
		}
	}
	const deg = 180 / math.Pi
	cx := math.Hypot(r[1][0], r[1][1])
	x := math.Atan2(-r[1][2], cx) * deg
	var y, z float64
	var rot [3]float64
	if cx > 1e-5 {
		y = math.Atan2(r[0][2], r[2][2]) * deg
		z = math.Atan2(r[1][0], r[1][1]) * deg
		// The other triple of the same rotation: Ry(y+180)·Rx(180-x)·Rz(z+180).
		a := [3]float64{x, y, z}
		b := [3]float64{180 - x, y + 180, z + 180}
		rot = closerTriple(a, b, near)
	} else {
		// Gimbal lock: R = Ry(y-z)·Rx(90) at x = 90°, Ry(y+z)·Rx(-90) at x = -90°.
		z = float64(near[2])
		if x > 0 {
			x = 90
			y = math.Atan2(r[0][1], r[0][0])*deg + z
		} else {
			x = -90
			y = math.Atan2(-r[0][1], r[0][0])*deg - z
		}
		rot = [3]float64{nearTurn(x, float64(near[0])), nearTurn(y, float64(near[1])), z}
	}
	return Transform{
		Position: mgl32.Vec3{m[12] + 0, m[13] + 0, m[14] + 0}, // +0 turns -0 into 0
		Rotation: mgl32.Vec3{float32(rot[0]) + 0, float32(rot[1]) + 0, float32(rot[2]) + 0},
		Scale:    mgl32.Vec3{float32(s[0]), float32(s[1]), float32(s[2])},
	}, true
}

// nearTurn returns a+k·360 closest to near (of two equally close, the larger; rounding errors
// of a half turn count as equally close).
func nearTurn(a, near float64) float64 {
	a += 360 * math.Round((near-a)/360)
	if a-near <= -180+1e-4 {
		a += 360
	}
	return a
}

// closerTriple returns a or b (Euler triples of one rotation), each angle moved by whole turns
// towards near, whichever is closer to near (a on a tie).
func closerTriple(a, b [3]float64, near mgl32.Vec3) [3]float64 {
	var da, db float64
	for i := range 3 {
		n := float64(near[i])
		a[i], b[i] = nearTurn(a[i], n), nearTurn(b[i], n)
		da += math.Abs(a[i] - n)
		db += math.Abs(b[i] - n)
	}
	if db < da-1e-9 {
		return b
	}
	return a
}

// GlobalTransform is the world matrix of an entity with a Transform: its parent's world matrix
// times its local matrix. The world adds it together with Transform and keeps it up to date
// (PropagateTransforms, Update); it is Computed: read it, never write it.
type GlobalTransform struct {
	Matrix mgl32.Mat4 `json:"matrix" voltex:"readonly"`
}

// Default returns the identity.
func (GlobalTransform) Default() GlobalTransform { return GlobalTransform{Matrix: mgl32.Ident4()} }

var transformType = reflect.TypeFor[Transform]()

// propagation is the state of transform propagation.
type propagation struct {
	changed *queryState // Changed[Transform], read-only
	stamp   []uint32    // by entity index: pass that last updated it
	pass    uint32
	work    []propItem
	runs    []propRun
	more    []propItem // the entities with a parent or children that flat's second goroutine found
	sorted  []propItem
	counts  []uint32
	stack   []propFrame
}

type propItem struct {
	e     Entity
	depth uint32
}

// TransformsDirty reports whether some world matrix may be out of date (a Transform or a parent
// link changed since the last propagation).
func (w *World) TransformsDirty() bool {
	p := w.prop.changed
	return len(w.hier.dirty) > 0 || p == nil || w.comps[w.transformID].lastChange > p.lastRun
}

// PropagateTransforms brings every GlobalTransform up to date. It only visits the subtrees whose
// root's Transform or parent changed since the previous propagation (found through the change
// ticks and their page summaries), so a frame where nothing moved costs almost nothing.
func (w *World) PropagateTransforms() {
	if !w.TransformsDirty() || w.frozen {
		return
	}
	if w.snapshot {
		panic("ecs: a snapshot has no world matrices to bring up to date (its computed components read as zero): " +
			"propagate on the world, or read a World.ReadCopy")
	}
	p := &w.prop
	if p.changed == nil {
		p.changed = newQueryState(w, []ComponentID{w.transformID},
			[]Term{{termChanged, transformType}, {termRead, transformType}})
	}
	work := p.work[:0]
	h := &w.hier
	tick := w.tick
	gs, ts := w.comps[w.globalID], w.comps[w.transformID]
	runs := p.runs[:0]
	var c cursor
	c.begin(p.changed)
	for c.advance() {
		var gcol, tcol *column
		if gs.sparse == nil && ts.sparse == nil {
			gcol, tcol = gs.cols[c.t.index], ts.cols[c.t.index]
		}
		if gcol != nil && tcol != nil {
			runs = append(runs, propRun{t: c.t, g: gcol, tr: tcol, from: uint32(c.start), to: uint32(c.end)})
			continue
		}
		for r := c.start; r < c.end; r++ {
			work = append(work, propItem{e: c.t.entities[r]})
		}
	}
	// Neither parent nor children: an entity's world matrix is its own, set in the table's order (a flat million
	// loaded or brought back is not listed and looked up one by one).
	work = p.flat(runs, h, tick, work)
	p.runs = runs[:0]
	for _, e := range w.hier.dirty {
		if w.Alive(e) {
			work = append(work, propItem{e: e})
		}
	}
	w.hier.dirty = w.hier.dirty[:0]
	if len(work) == 0 {
		p.work = work
		return
	}
	if len(work) > 1 {
		work = w.sortByDepth(work)
	}
	p.pass++
	if len(p.stamp) < len(w.records) {
		p.stamp = append(p.stamp, make([]uint32, w.IndexCap()-len(p.stamp))...)
	}
	stack := p.stack[:0]
	for _, it := range work {
		if p.stamp[it.e.index] == p.pass {
			continue
		}
		stack = append(stack[:0], propFrame{e: it.e, parent: w.parentMatrix(it.e)})
		for len(stack) > 0 {
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			p.stamp[f.e.index] = p.pass
			m := w.updateGlobal(f.e, f.parent, tick)
			if h.active && int(f.e.index) < len(h.nodes) {
				for c := h.nodes[f.e.index].first; c != 0; c = h.nodes[c].next {
					stack = append(stack, propFrame{e: w.handle(c), parent: m})
				}
			}
		}
	}
	p.work = work[:0]
	p.stack = stack[:0]
}

// propRun is a run of rows of a table whose transforms changed, with the table's world matrix and transform columns.
type propRun struct {
	t        *table
	g, tr    *column
	from, to uint32
}

// parallelPropRows is the fewest rows of changed transforms that flat splits between two goroutines.
const parallelPropRows = 1 << 15

// flat sets the world matrix of each entity of runs that has neither parent nor children (its transform's
// matrix), appends the others to work, and returns it. Many rows (a field set on a million) are split between two
// goroutines where a run begins a page of rows another run does not share: each row's values and change tick are
// its own, and each page's change summary is written by the goroutine whose rows it holds.
func (p *propagation) flat(runs []propRun, h *hierarchy, tick uint32, work []propItem) []propItem {
	rows := 0
	for _, r := range runs {
		rows += int(r.to - r.from)
	}
	if rows == 0 {
		return work
	}
	split := len(runs)
	if rows >= parallelPropRows && runtime.GOMAXPROCS(0) > 1 {
		acc := 0
		for i, r := range runs {
			if 2*acc >= rows && (r.t != runs[i-1].t || r.from>>pageShift != (runs[i-1].to-1)>>pageShift) {
				split = i
				break
			}
			acc += int(r.to - r.from)
		}
	}
	var set bool
	if split == len(runs) {
		work, set = flatRows(runs, h, tick, work)
	} else {
		var wg sync.WaitGroup
		var setMore bool
		wg.Go(func() { p.more, setMore = flatRows(runs[split:], h, tick, p.more[:0]) })
		work, set = flatRows(runs[:split], h, tick, work)
		wg.Wait()
		work, set = append(work, p.more...), set || setMore
		p.more = p.more[:0]
	}
	if g := runs[0].g; set && g.store.lastChange < tick {
		g.store.lastChange = tick
	}
	return work
}

// flatRows is flat's work on one goroutine; set reports whether it set a world matrix.
func flatRows(runs []propRun, h *hierarchy, tick uint32, work []propItem) (_ []propItem, set bool) {
	for _, run := range runs {
		for r := run.from; r < run.to; r++ {
			e := run.t.entities[r]
			if h.alone(e.index) {
				(*GlobalTransform)(run.g.at(r)).Matrix = (*Transform)(run.tr.at(r)).Matrix()
				run.g.setChanged(r, tick)
				set = true
				continue
			}
			work = append(work, propItem{e: e})
		}
	}
	return work, set
}

// propFrame is an entity waiting for propagation and its parent's world matrix (nil: none).
type propFrame struct {
	e      Entity
	parent *mgl32.Mat4
}

// alone reports whether the entity of index i has neither a parent nor children.
func (h *hierarchy) alone(i uint32) bool {
	if !h.active || int(i) >= len(h.nodes) {
		return true
	}
	n := &h.nodes[i]
	return n.parent == 0 && n.first == 0
}

// parentMatrix returns the world matrix of e's parent, nil if e has no parent or the parent has
// no Transform.
func (w *World) parentMatrix(e Entity) *mgl32.Mat4 {
	h := &w.hier
	if !h.active || int(e.index) >= len(h.nodes) || h.nodes[e.index].parent == 0 {
		return nil
	}
	if pc, prow, ok := w.locate(w.handle(h.nodes[e.index].parent), w.globalID); ok {
		return &(*GlobalTransform)(pc.at(prow)).Matrix
	}
	return nil
}

// updateGlobal sets e's GlobalTransform to parent × its Transform's matrix (just the latter
// without a parent) and returns a pointer to it, or nil if e has no Transform. Nothing moves
// column storage while propagation runs, so the pointer stays valid for e's children.
func (w *World) updateGlobal(e Entity, parent *mgl32.Mat4, tick uint32) *mgl32.Mat4 {
	gc, grow, ok := w.locate(e, w.globalID)
	if !ok {
		return nil
	}
	tc, trow, _ := w.locate(e, w.transformID)
	m := (*Transform)(tc.at(trow)).Matrix()
	if parent != nil {
		m = parent.Mul4(m)
	}
	g := &(*GlobalTransform)(gc.at(grow)).Matrix
	*g = m
	gc.markChanged(grow, tick)
	return g
}

// WorldMatrix returns e's world matrix, propagating transforms first if needed (except while
// systems run in parallel). It returns the identity for entities without a Transform or dead ones.
// It panics on a Snapshot, which has no world matrices.
func (w *World) WorldMatrix(e Entity) mgl32.Mat4 {
	if !w.Alive(e) {
		return mgl32.Ident4()
	}
	if w.TransformsDirty() {
		w.PropagateTransforms()
	}
	if c, row, ok := w.locate(e, w.globalID); ok {
		return (*GlobalTransform)(c.at(row)).Matrix
	}
	return mgl32.Ident4()
}

// sortByDepth orders work by hierarchy depth, roots first (stable), so that a subtree is
// propagated from its highest changed entity only. Depths are computed with a memo (each
// ancestor is walked once per propagation, whatever the shape) and sorted by counting, so the
// cost is linear in the work plus the ancestors it reaches.
func (w *World) sortByDepth(work []propItem) []propItem {
	h := &w.hier
	p := &w.prop
	var maxDepth uint32
	if h.active {
		h.val.reset(len(w.records))
		for i := range work {
			work[i].depth = h.depth(work[i].e.index)
			maxDepth = max(maxDepth, work[i].depth)
		}
	}
	if maxDepth == 0 {
		return work
	}
	counts := p.counts[:0]
	for range maxDepth + 2 {
		counts = append(counts, 0)
	}
	for _, it := range work {
		counts[it.depth+1]++
	}
	for d := 1; d < len(counts); d++ {
		counts[d] += counts[d-1]
	}
	sorted := append(p.sorted[:0], work...)
	for _, it := range work {
		sorted[counts[it.depth]] = it
		counts[it.depth]++
	}
	p.counts = counts[:0]
	p.sorted = work[:0] // the two buffers swap roles
	return sorted
}

// depth returns the number of ancestors of i, remembering (in h.val, reset by the caller) the
// depth of every node it walks through.
func (h *hierarchy) depth(i uint32) uint32 {
	if int(i) >= len(h.nodes) {
		return 0
	}
	path := h.path[:0] // i and its ancestors below x, nearest to x last
	x := i
	var d uint32 // x's depth
	for {
		if v, ok := h.val.get(x); ok {
			d = v
			break
		}
		par := h.nodes[x].parent
		if par == 0 {
			h.val.set(x, 0)
			break
		}
		h.steps++
		path = append(path, x)
		x = par
	}
	for k := len(path) - 1; k >= 0; k-- {
		d++
		h.val.set(path[k], d)
	}
	h.path = path[:0]
	return d
}
