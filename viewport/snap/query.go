package snap

import (
	"math"
	"slices"
	"sync"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
)

// Cache keeps one [Index] per mesh asset, shared by every instance of it. A reloaded mesh is a new *assets.Mesh
// and gets a new index; Forget drops those no longer drawn. Safe for concurrent use.
type Cache struct {
	mu sync.Mutex
	m  map[*assets.Mesh]*Index
}

// Index returns m's index, building it the first time m is asked for.
func (c *Cache) Index(m *assets.Mesh) *Index {
	c.mu.Lock()
	defer c.mu.Unlock()
	if x, ok := c.m[m]; ok {
		return x
	}
	if c.m == nil {
		c.m = map[*assets.Mesh]*Index{}
	}
	x := NewIndex(m)
	c.m[m] = x
	return x
}

// Keep drops the indexes of meshes that no batch of dl draws any more.
func (c *Cache) Keep(dl *viewport.DrawList) {
	live := map[*assets.Mesh]bool{}
	for _, b := range dl.Batches() {
		live[b.Mesh] = true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for m := range c.m {
		if !live[m] {
			delete(c.m, m)
		}
	}
}

// Len returns the number of meshes indexed.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// chunkRef is a chunk of a draw list's batch with its mesh's index and local bounds.
type chunkRef struct {
	x     *Index
	local viewport.AABB
	ch    *viewport.Chunk
}

// eachInstance calls f with the instances of dl that accept takes (all when accept is nil) whose world box, and
// their chunk's, near keeps, and their mesh's index, until f returns true. It appends the chunks near kept to
// walked, when walked is not nil.
func eachInstance(dl *viewport.DrawList, c *Cache, near func(viewport.AABB) bool, accept func(id uint32) bool, walked *[]chunkRef, f func(x *Index, in *viewport.Instance) (stop bool)) {
	for _, b := range dl.Batches() {
		if b.Len() == 0 {
			continue
		}
		x := c.Index(b.Mesh)
		local := viewport.MeshBounds(b.Mesh)
		for _, ch := range b.Chunks() {
			if !near(ch.Bounds()) {
				continue
			}
			if walked != nil {
				*walked = append(*walked, chunkRef{x: x, local: local, ch: ch})
			}
			if instancesIn(chunkRef{x: x, local: local, ch: ch}, near, accept, f) {
				return
			}
		}
	}
}

// instancesIn calls f with the instances of one chunk that accept takes and whose world box near keeps, until f
// returns true; stop reports whether it did.
func instancesIn(r chunkRef, near func(viewport.AABB) bool, accept func(id uint32) bool, f func(x *Index, in *viewport.Instance) bool) (stop bool) {
	for i := range r.ch.Instances {
		in := &r.ch.Instances[i]
		if (accept == nil || accept(in.ID)) && near(r.local.Transform(in.World)) && f(r.x, in) {
			return true
		}
	}
	return false
}

// SurfaceHit is the surface under a ray: the instance, the distance along the ray (in units of its Dir), the point
// and the unit world normal of the triangle hit, turned to face the ray's origin.
type SurfaceHit struct {
	ID     uint32
	T      float32
	Point  mgl32.Vec3
	Normal mgl32.Vec3
}

// Surface returns the nearest surface r hits among the instances of dl that accept takes (all when accept is nil).
func Surface(dl *viewport.DrawList, c *Cache, r viewport.Ray, accept func(id uint32) bool) (SurfaceHit, bool) {
	var best SurfaceHit
	found := false
	limit := float32(math.Inf(1))
	seg := segmentOf(r)
	near := func(b viewport.AABB) bool { return seg.meets(b, limit) }
	eachInstance(dl, c, near, accept, nil, func(x *Index, in *viewport.Instance) bool {
		inv := in.World.Inv()
		if inv == (mgl32.Mat4{}) {
			return false
		}
		t, n, ok := x.Ray(r.Transform(inv), limit)
		if !ok || found && t >= best.T {
			return false
		}
		wn := inv.Transpose().Mul4x1(n.Vec4(0)).Vec3()
		if l := wn.Len(); l > 0 {
			wn = wn.Mul(1 / l)
		}
		if wn.Dot(r.Dir) > 0 {
			wn = wn.Mul(-1)
		}
		best, found, limit = SurfaceHit{ID: in.ID, T: t, Normal: wn}, true, t
		return false
	})
	if found {
		best.Point = r.At(best.T)
	}
	return best, found
}

// segment is a ray made ready for many box tests: its direction's reciprocals worked out once.
type segment struct {
	origin, inv mgl32.Vec3
}

func segmentOf(r viewport.Ray) segment {
	s := segment{origin: r.Origin}
	for i := range 3 {
		s.inv[i] = 1 / r.Dir[i] // ±Inf along an axis it does not move on
	}
	return s
}

// meets reports whether the ray may meet box b at a t ≤ limit: a culling test, which may say yes for a box it
// grazes (a NaN from an origin on a slab's plane along an axis the ray does not move on answers yes).
func (s *segment) meets(b viewport.AABB, limit float32) bool {
	if b.IsEmpty() {
		return false
	}
	lo, hi := float32(0), limit
	for i := range 3 {
		t1 := (b.Min[i] - s.origin[i]) * s.inv[i]
		t2 := (b.Max[i] - s.origin[i]) * s.inv[i]
		if t1 > t2 {
			t1, t2 = t2, t1
		}
		if t1 > lo {
			lo = t1
		}
		if t2 < hi {
			hi = t2
		}
		if lo > hi {
			return false
		}
	}
	return true
}

// View is what a screen-space query needs of the camera: the view-projection matrix of a W×H pixel viewport and
// the camera's rays (viewport.Camera.Ray).
type View struct {
	ViewProj mgl32.Mat4
	W, H     int
	Ray      func(x, y float32) viewport.Ray
}

// ViewOf returns cam's View of a w×h viewport.
func ViewOf(cam viewport.Camera, w, h int) View {
	return View{ViewProj: cam.ViewProj(w, h), W: w, H: h, Ray: func(x, y float32) viewport.Ray { return cam.Ray(x, y, w, h) }}
}

// Pixel projects world point p to pixel coordinates (top-left origin) and its clip w (its depth); ok is false when
// p is not in front of the camera.
func (v View) Pixel(p mgl32.Vec3) (px mgl32.Vec2, depth float32, ok bool) {
	return pixel(v.ViewProj.Mul4x1(p.Vec4(1)), v.W, v.H)
}

func pixel(clip mgl32.Vec4, w, h int) (mgl32.Vec2, float32, bool) {
	if clip[3] <= 1e-6 {
		return mgl32.Vec2{}, 0, false
	}
	inv := 1 / clip[3]
	x := (clip[0]*inv + 1) * 0.5 * float32(w)
	y := (1 - clip[1]*inv) * 0.5 * float32(h)
	return mgl32.Vec2{x, y}, clip[3], true
}

// VertexHit is a vertex found on screen: the instance, the vertex's exact world position, its pixel and its
// distance in pixels from the mouse.
type VertexHit struct {
	ID    uint32
	Point mgl32.Vec3
	Pixel mgl32.Vec2
	Dist  float32
	depth float32
}

// better reports whether a vertex at dist pixels and depth beats h: in a whole pixel nearer the mouse, or in the
// same whole pixel and nearer the camera (the one in front of the others drawn there).
func (h VertexHit) better(dist, depth float32, found bool) bool {
	if !found {
		return true
	}
	if a, b := float32(math.Floor(float64(dist))), float32(math.Floor(float64(h.Dist))); a != b {
		return a < b
	}
	if depth != h.depth {
		return depth < h.depth
	}
	return dist < h.Dist
}

// cone is the cone of rays from the camera through the pixels within radius of the mouse: a culling test for
// boxes that may hold a vertex drawn within radius.
type cone struct {
	apex, axis mgl32.Vec3
	sin, cos   float32
	angle      float64 // the half-angle for radius pixels (narrow enough that it grows as the pixels do)
	radius     float32
}

// narrowed returns c for a radius of r ≤ c.radius pixels.
func (c cone) narrowed(r float32) cone {
	a := c.angle * float64(r/c.radius)
	s, co := math.Sincos(a)
	c.sin, c.cos = float32(s), float32(co)
	return c
}

func coneOf(v View, mouse mgl32.Vec2, radius float32) cone {
	mid := v.Ray(mouse[0], mouse[1])
	axis := mid.Dir.Normalize()
	var cosMin float32 = 1
	for i := range 8 { // the widest of eight rays around the circle, widened below to cover those between
		a := float64(i) * math.Pi / 4
		d := v.Ray(mouse[0]+radius*float32(math.Cos(a)), mouse[1]+radius*float32(math.Sin(a))).Dir.Normalize()
		cosMin = min(cosMin, d.Dot(axis))
	}
	angle := math.Acos(float64(max(-1, min(1, cosMin))))*1.25 + 1e-4
	if angle >= math.Pi/2 {
		angle = math.Pi / 2
	}
	s, co := math.Sincos(angle)
	// the apex moves back along the axis so that rays starting on the near plane are inside
	return cone{apex: mid.Origin.Sub(axis.Mul(1e-3)), axis: axis, sin: float32(s), cos: float32(co), angle: angle, radius: radius}
}

// mayHold reports whether box b (in world space) may meet the cone (its bounding sphere against the cone).
func (c *cone) mayHold(b viewport.AABB) bool {
	if b.IsEmpty() {
		return false
	}
	centre, radius := b.Center(), b.Size().Len()*0.5
	d := centre.Sub(c.apex)
	t := d.Dot(c.axis)
	// perp·cos - t·sin ≤ radius, squared (perp ≥ 0 and cos > 0) to spare a square root
	rhs := radius + t*c.sin
	return rhs >= 0 && d.Sub(c.axis.Mul(t)).LenSqr()*c.cos*c.cos <= rhs*rhs
}

// Vertex returns the vertex of dl's instances that accept takes (all when accept is nil) drawn nearest the mouse
// pixel and within radius pixels of it, of those the camera sees; of vertices on the same pixel, the nearest the
// camera. A vertex is seen when no triangle of those instances lies between it and the camera along its ray
// (a surface at the vertex's own distance, within [SeenTolerance] of it, does not hide it: the faces that meet
// there), so neither a vertex behind another mesh nor one on the far side of its own mesh is found.
func Vertex(dl *viewport.DrawList, c *Cache, v View, mouse mgl32.Vec2, radius float32, accept func(id uint32) bool) (VertexHit, bool) {
	cn := coneOf(v, mouse, radius)
	var best VertexHit
	found := false
	// narrow is shrunk to the best vertex so far (only one as near or nearer can beat it); narrow.mayHold is bound
	// to &narrow, so the culling sees it shrink.
	narrow := cn
	// The cone only narrows, and the best vertex's sight line lies in the last one: the chunks walked hold all that
	// may hide it.
	var walked []chunkRef
	eachInstance(dl, c, narrow.mayHold, accept, &walked, func(x *Index, in *viewport.Instance) bool {
		best, found = nearestVertex(x, in.ID, in.World, v, mouse, radius, &narrow, best, found)
		if found {
			narrow = cn.narrowed(min(radius, float32(math.Floor(float64(best.Dist)))+1))
		}
		return false
	})
	if !found {
		return VertexHit{}, false
	}
	s := sight{dl: dl, c: c, v: v, accept: accept}
	if s.sees(best, walked) { // the nearest drawn is usually seen
		return best, true
	}
	// Else the vertices in rings around the mouse, each twice as wide as the one inside it, best first, until one
	// is seen: one is usually a pixel or two away, and a narrow ring walks few instances.
	hidden := best.Point
	lo, hi := float32(0), float32(math.Floor(float64(best.Dist)))+1
	var ring []VertexHit
	for {
		last := hi >= radius
		hi = min(hi, radius)
		narrow := cn.narrowed(hi)
		ring = ring[:0]
		eachInstance(dl, c, narrow.mayHold, accept, nil, func(x *Index, in *viewport.Instance) bool {
			ring = verticesNear(x, in.ID, in.World, v, mouse, hi, &narrow, ring)
			return false
		})
		ring = slices.DeleteFunc(ring, func(h VertexHit) bool { return h.Dist < lo || h.Dist >= hi && !last })
		slices.SortStableFunc(ring, func(a, b VertexHit) int {
			switch {
			case a.better(b.Dist, b.depth, true):
				return 1
			case b.better(a.Dist, a.depth, true):
				return -1
			}
			return 0
		})
		for _, h := range ring {
			if h.Point != hidden && s.sees(h, nil) {
				return h, true
			}
		}
		if last {
			return VertexHit{}, false
		}
		lo, hi = hi, 2*hi
	}
}

// SeenTolerance is how far behind a surface a vertex may be, as a share of its distance from the camera, and still
// count as seen: the faces that meet at a vertex are hit at about its own distance, give or take rounding.
const SeenTolerance = 1e-3

// sight tells whether the camera sees a vertex: no triangle of dl's instances that accept takes lies between them.
// It remembers the instance that last hid one, which often hides the next one too.
type sight struct {
	dl     *viewport.DrawList
	c      *Cache
	v      View
	accept func(id uint32) bool
	// last hid the vertex tested last (its index and inverse world matrix); lastOK is false until one did.
	last    *Index
	lastInv mgl32.Mat4
	lastOK  bool
}

// sees reports whether h's vertex is seen: the ray from the camera through its pixel, aimed at it exactly (t = 1
// there), crosses no triangle before 1 - SeenTolerance. Only the chunks of within are tested, when it is not nil
// (they must hold every chunk the ray meets).
func (s *sight) sees(h VertexHit, within []chunkRef) bool {
	r := s.v.Ray(h.Pixel[0], h.Pixel[1])
	r.Dir = h.Point.Sub(r.Origin)
	const limit = 1 - SeenTolerance
	if s.lastOK && s.last.Blocked(r.Transform(s.lastInv), limit) {
		return false
	}
	seen := true
	seg := segmentOf(r)
	near := func(b viewport.AABB) bool { return seg.meets(b, limit) }
	hides := func(x *Index, in *viewport.Instance) bool {
		inv := in.World.Inv()
		if inv == (mgl32.Mat4{}) || !x.Blocked(r.Transform(inv), limit) {
			return false
		}
		seen, s.last, s.lastInv, s.lastOK = false, x, inv, true
		return true
	}
	if within == nil {
		eachInstance(s.dl, s.c, near, s.accept, nil, hides)
		return seen
	}
	for _, ref := range within {
		if near(ref.ch.Bounds()) && instancesIn(ref, near, s.accept, hides) {
			break
		}
	}
	return seen
}

// VertexOf returns the vertex of the instances ids drawn nearest the mouse, however far: the vertex of a moved
// selection that snaps.
func VertexOf(dl *viewport.DrawList, c *Cache, v View, mouse mgl32.Vec2, ids []uint32) (VertexHit, bool) {
	var best VertexHit
	found := false
	inf := float32(math.Inf(1))
	for _, id := range ids {
		in, ref, ok := dl.Get(id)
		if !ok {
			continue
		}
		b := dl.Batch(ref)
		if b == nil {
			continue
		}
		best, found = nearestVertex(c.Index(b.Mesh), id, in.World, v, mouse, inf, nil, best, found)
	}
	return best, found
}

// nearestVertex improves best with the vertices of one instance (index x, world matrix world) within radius of the
// mouse, walking only the boxes that may meet cn (all when cn is nil).
func nearestVertex(x *Index, id uint32, world mgl32.Mat4, v View, mouse mgl32.Vec2, radius float32, cn *cone, best VertexHit, found bool) (VertexHit, bool) {
	eachVertexNear(x, world, v, mouse, radius, cn, func(p mgl32.Vec3, px mgl32.Vec2, dist, depth float32) {
		if best.better(dist, depth, found) {
			best = VertexHit{ID: id, Point: world.Mul4x1(p.Vec4(1)).Vec3(), Pixel: px, Dist: dist, depth: depth}
			found = true
		}
	})
	return best, found
}

// verticesNear appends to hits the vertices of one instance drawn within radius of the mouse, walking only the
// boxes that may meet cn.
func verticesNear(x *Index, id uint32, world mgl32.Mat4, v View, mouse mgl32.Vec2, radius float32, cn *cone, hits []VertexHit) []VertexHit {
	eachVertexNear(x, world, v, mouse, radius, cn, func(p mgl32.Vec3, px mgl32.Vec2, dist, depth float32) {
		hits = append(hits, VertexHit{ID: id, Point: world.Mul4x1(p.Vec4(1)).Vec3(), Pixel: px, Dist: dist, depth: depth})
	})
	return hits
}

// eachVertexNear calls f with each vertex p (local) of one instance drawn within radius of the mouse, its pixel,
// its distance from the mouse and its depth, walking only the boxes that may meet cn (all when cn is nil).
func eachVertexNear(x *Index, world mgl32.Mat4, v View, mouse mgl32.Vec2, radius float32, cn *cone, f func(p mgl32.Vec3, px mgl32.Vec2, dist, depth float32)) {
	mvp := v.ViewProj.Mul4(world)
	r2 := radius * radius
	keep := func(viewport.AABB) bool { return true }
	if cn != nil {
		keep = func(b viewport.AABB) bool { return cn.mayHold(b.Transform(world)) }
	}
	x.visitVertices(keep, func(p mgl32.Vec3) {
		px, depth, ok := pixel(mvp.Mul4x1(p.Vec4(1)), v.W, v.H)
		if !ok {
			return
		}
		if d2 := px.Sub(mouse).LenSqr(); d2 <= r2 {
			f(p, px, float32(math.Sqrt(float64(d2))), depth)
		}
	})
}
