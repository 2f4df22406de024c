package snap

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
)

func randVec(rng *rand.Rand, s float32) mgl32.Vec3 {
	return mgl32.Vec3{(rng.Float32()*2 - 1) * s, (rng.Float32()*2 - 1) * s, (rng.Float32()*2 - 1) * s}
}

// randMesh is a soup of random triangles, some of whose indices are out of range (which the index skips).
func randMesh(rng *rand.Rand) *assets.Mesh {
	nv := 3 + rng.IntN(200)
	verts := make([]float32, 0, nv*assets.FloatsPerVertex)
	for range nv {
		p := randVec(rng, 1)
		if rng.IntN(4) == 0 { // on a coarse lattice too, so that vertices repeat
			p = mgl32.Vec3{float32(rng.IntN(3)) - 1, float32(rng.IntN(3)) - 1, float32(rng.IntN(3)) - 1}
		}
		verts = append(verts, p[0], p[1], p[2])
		for range assets.FloatsPerVertex - 3 {
			verts = append(verts, 0)
		}
	}
	nt := 1 + rng.IntN(300)
	idx := make([]uint32, 0, nt*3)
	for range nt * 3 {
		i := uint32(rng.IntN(nv))
		if rng.IntN(500) == 0 {
			i = uint32(nv + 3)
		}
		idx = append(idx, i)
	}
	return assets.NewMesh(verts, idx)
}

func randRay(rng *rand.Rand, s float32) viewport.Ray {
	o := randVec(rng, s)
	target := randVec(rng, s/3)
	return viewport.Ray{Origin: o, Dir: target.Sub(o).Normalize()}
}

// randMatrix is a random translation, rotation and (positive, non-uniform) scale.
func randMatrix(rng *rand.Rand, spread float32) mgl32.Mat4 {
	axis := randVec(rng, 1)
	if axis.Len() < 1e-3 {
		axis = mgl32.Vec3{0, 1, 0}
	}
	rot := mgl32.HomogRotate3D(rng.Float32()*6.28, axis.Normalize())
	sc := mgl32.Scale3D(0.3+rng.Float32()*2, 0.3+rng.Float32()*2, 0.3+rng.Float32()*2)
	t := randVec(rng, spread)
	return mgl32.Translate3D(t[0], t[1], t[2]).Mul4(rot).Mul4(sc)
}

func TestIndexRayMatchesEveryTriangle(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	hits := 0
	for range 200 {
		m := randMesh(rng)
		x := NewIndex(m)
		for range 50 {
			r := randRay(rng, 3)
			wantT, wantOK := viewport.IntersectMesh(m, r)
			gotT, n, gotOK := x.Ray(r, float32(math.Inf(1)))
			if gotOK != wantOK || gotT != wantT {
				t.Fatalf("ray %v: index %v %v, every triangle %v %v", r, gotT, gotOK, wantT, wantOK)
			}
			if gotOK {
				hits++
				if l := n.Len(); l != 0 && math.Abs(float64(l-1)) > 1e-4 {
					t.Fatalf("normal %v is not unit", n)
				}
			}
		}
	}
	if hits < 1000 {
		t.Fatalf("only %d of 10000 rays hit: the test does not exercise the index", hits)
	}
}

func TestIndexKeepsDistinctVertices(t *testing.T) {
	cube, _ := assets.Builtin("builtin:cube")
	x := NewIndex(cube)
	if len(x.Vertices()) != 8 || x.Triangles() != 12 {
		t.Fatalf("cube: %d vertices, %d triangles; want 8 and 12", len(x.Vertices()), x.Triangles())
	}
	if y := NewIndex(nil); len(y.Vertices()) != 8 {
		t.Fatalf("no mesh is the unit cube: %d vertices", len(y.Vertices()))
	}
}

// randScene is a draw list of random instances of a few random meshes, within spread of the origin.
func randScene(rng *rand.Rand, n int, spread float32) (*viewport.DrawList, map[string]*assets.Mesh) {
	dl := viewport.NewDrawList()
	meshes := map[string]*assets.Mesh{}
	refs := []string{"a", "b", "c"}
	for _, ref := range refs {
		meshes[ref] = randMesh(rng)
		dl.SetMesh(ref, meshes[ref])
	}
	for i := range n {
		dl.Set(refs[rng.IntN(len(refs))], viewport.Instance{World: randMatrix(rng, spread), ID: uint32(i + 1)})
	}
	return dl, meshes
}

// everyInstance calls f with each instance of dl that accept takes and its mesh, culling nothing.
func everyInstance(dl *viewport.DrawList, accept func(uint32) bool, f func(m *assets.Mesh, in viewport.Instance)) {
	for _, b := range dl.Batches() {
		for _, ch := range b.Chunks() {
			for _, in := range ch.Instances {
				if accept(in.ID) {
					f(b.Mesh, in)
				}
			}
		}
	}
}

func bruteSurface(dl *viewport.DrawList, r viewport.Ray, accept func(uint32) bool) (id uint32, t float32, ok bool) {
	everyInstance(dl, accept, func(m *assets.Mesh, in viewport.Instance) {
		if ti, hit := viewport.IntersectMesh(m, r.Transform(in.World.Inv())); hit && (!ok || ti < t) {
			id, t, ok = in.ID, ti, true
		}
	})
	return id, t, ok
}

func TestSurfaceMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 1))
	var c Cache
	hits := 0
	for range 20 {
		dl, _ := randScene(rng, 300, 10)
		odd := func(id uint32) bool { return id%2 == 1 }
		for range 100 {
			r := randRay(rng, 25)
			id, want, ok := bruteSurface(dl, r, odd)
			h, got := Surface(dl, &c, r, odd)
			if got != ok {
				t.Fatalf("ray %v: hit %v, brute force %v", r, got, ok)
			}
			if !ok {
				continue
			}
			hits++
			if math.Abs(float64(h.T-want)) > 1e-4*float64(max(1, want)) || h.ID%2 != 1 {
				t.Fatalf("ray %v: %d at %v, brute force %d at %v", r, h.ID, h.T, id, want)
			}
			if h.Normal.Dot(r.Dir) > 0 || h.Point.Sub(r.At(h.T)).Len() > 1e-5 {
				t.Fatalf("ray %v: normal %v faces away or point %v off the ray", r, h.Normal, h.Point)
			}
		}
		c.Keep(viewport.NewDrawList())
		if c.Len() != 0 {
			t.Fatalf("Keep of an empty list kept %d indexes", c.Len())
		}
	}
	if hits < 300 {
		t.Fatalf("only %d rays hit", hits)
	}
}

// cubes is a draw list of builtin cubes with these world matrices (ids from 1).
func cubes(worlds ...mgl32.Mat4) *viewport.DrawList {
	cube, _ := assets.Builtin("builtin:cube")
	dl := viewport.NewDrawList()
	dl.SetMesh("cube", cube)
	for i, w := range worlds {
		dl.Set("cube", viewport.Instance{World: w, ID: uint32(i + 1)})
	}
	return dl
}

func TestSurfaceNormalOfTransformedCube(t *testing.T) {
	// a cube squashed to half height and turned 90° about Z: its local +X face is the world's top
	w := mgl32.Translate3D(1, 2, 3).Mul4(mgl32.HomogRotate3DZ(math.Pi / 2)).Mul4(mgl32.Scale3D(0.5, 4, 1))
	dl := cubes(w)
	var c Cache
	h, ok := Surface(dl, &c, viewport.Ray{Origin: mgl32.Vec3{1, 10, 3}, Dir: mgl32.Vec3{0, -1, 0}}, nil)
	if !ok || h.ID != 1 || h.Point.Sub(mgl32.Vec3{1, 2.25, 3}).Len() > 1e-5 || h.Normal.Sub(mgl32.Vec3{0, 1, 0}).Len() > 1e-5 {
		t.Fatalf("got %+v %v; want the top at y 2.25, normal +Y", h, ok)
	}
}

// bruteVertex projects every vertex of every instance the same way Vertex does and, best first, returns the first
// that no triangle of any instance hides (every triangle tested); passed is how many hidden ones it passed over.
func bruteVertex(dl *viewport.DrawList, v View, mouse mgl32.Vec2, radius float32, accept func(uint32) bool) (hit VertexHit, found bool, passed int) {
	var all []VertexHit
	everyInstance(dl, accept, func(m *assets.Mesh, in viewport.Instance) {
		mvp := v.ViewProj.Mul4(in.World)
		for i := range m.VertexCount() {
			p := m.Position(i)
			px, depth, ok := pixel(mvp.Mul4x1(p.Vec4(1)), v.W, v.H)
			if !ok {
				continue
			}
			dist := float32(math.Sqrt(float64(px.Sub(mouse).LenSqr())))
			if dist*dist <= radius*radius {
				all = append(all, VertexHit{ID: in.ID, Point: in.World.Mul4x1(p.Vec4(1)).Vec3(), Pixel: px, Dist: dist, depth: depth})
			}
		}
	})
	for len(all) > 0 {
		best := 0
		for i, h := range all {
			if all[best].better(h.Dist, h.depth, true) {
				best = i
			}
		}
		h := all[best]
		if !bruteHidden(dl, v, h, accept) {
			return h, true, passed
		}
		passed++
		all = slices.DeleteFunc(all, func(o VertexHit) bool { return o.Point == h.Point })
	}
	return VertexHit{}, false, passed
}

// bruteHidden reports whether any triangle of dl's instances lies between the camera and h's vertex.
func bruteHidden(dl *viewport.DrawList, v View, h VertexHit, accept func(uint32) bool) bool {
	r := v.Ray(h.Pixel[0], h.Pixel[1])
	r.Dir = h.Point.Sub(r.Origin)
	hidden := false
	everyInstance(dl, accept, func(m *assets.Mesh, in viewport.Instance) {
		if t, ok := viewport.IntersectMesh(m, r.Transform(in.World.Inv())); ok && t < 1-SeenTolerance {
			hidden = true
		}
	})
	return hidden
}

func randCamera(rng *rand.Rand) viewport.Camera {
	c := viewport.DefaultCamera()
	c.Pivot = randVec(rng, 5)
	c.Yaw = rng.Float32() * 360
	c.Pitch = rng.Float32()*160 - 80
	c.Distance = 5 + rng.Float32()*40
	return c
}

func TestVertexMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 2))
	var c Cache
	hits, passed := 0, 0
	for i := range 8 {
		// close together, and far apart over many of the draw list's chunks (its sight lines cross several)
		dl, _ := randScene(rng, 200, []float32{10, 40}[i%2])
		notFirst := func(id uint32) bool { return id > 1 }
		for range 40 {
			v := ViewOf(randCamera(rng), 640, 480)
			mouse := mgl32.Vec2{rng.Float32() * 640, rng.Float32() * 480}
			radius := 2 + rng.Float32()*20
			want, wantOK, n := bruteVertex(dl, v, mouse, radius, notFirst)
			passed += n
			got, gotOK := Vertex(dl, &c, v, mouse, radius, notFirst)
			if gotOK != wantOK || got.Point != want.Point || got.Dist != want.Dist {
				t.Fatalf("mouse %v radius %v: got %+v %v, brute force %+v %v", mouse, radius, got, gotOK, want, wantOK)
			}
			if gotOK {
				hits++
			}
		}
	}
	t.Logf("%d of 320 queries found a vertex, passing over %d hidden ones", hits, passed)
	if hits < 80 || passed < 80 {
		t.Fatalf("of 320 queries, %d found a vertex, passing over %d hidden ones: the test does not exercise the search", hits, passed)
	}
}

func TestVertexOfIsTheSelectionsNearest(t *testing.T) {
	dl := cubes(mgl32.Translate3D(0, 0, 0), mgl32.Translate3D(3, 0, 0))
	cube, _ := assets.Builtin("builtin:cube")
	var c Cache
	v := ViewOf(viewport.DefaultCamera(), 800, 600)
	corner := mgl32.Vec3{3.5, 0.5, 0.5}
	px, _, _ := v.Pixel(corner)
	// the mouse on cube 2's corner: of cube 1, its own corner drawn nearest; of any cube, cube 2's corner exactly
	var want mgl32.Vec3
	nearest := float32(math.Inf(1))
	for _, p := range NewIndex(cube).Vertices() {
		if q, _, _ := v.Pixel(p); q.Sub(px).Len() < nearest {
			want, nearest = p, q.Sub(px).Len()
		}
	}
	if h, ok := VertexOf(dl, &c, v, px, []uint32{1}); !ok || h.ID != 1 || h.Point != want {
		t.Fatalf("VertexOf cube 1: %+v %v; want %v", h, ok, want)
	}
	if h, ok := Vertex(dl, &c, v, px.Add(mgl32.Vec2{3, -2}), 8, nil); !ok || h.ID != 2 || h.Point != corner {
		t.Fatalf("Vertex near cube 2's corner: %+v %v", h, ok)
	}
	if _, ok := Vertex(dl, &c, v, px.Add(mgl32.Vec2{30, 0}), 8, func(id uint32) bool { return id != 2 }); ok {
		t.Fatal("a vertex found 30 pixels away with a radius of 8")
	}
}
