package viewport

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
)

// randomScene is n instances scattered over a few hundred units (some rotated and scaled, a few with a broken
// matrix), in a cube batch, a sphere batch and a batch without a mesh.
func randomScene(rng *rand.Rand, n int) *DrawList {
	d := NewDrawList()
	cube, _ := assets.Builtin(assets.BuiltinCube)
	sphere, _ := assets.Builtin(assets.BuiltinSphere)
	d.SetMesh(assets.BuiltinCube, cube)
	d.SetMesh(assets.BuiltinSphere, sphere)
	refs := []string{assets.BuiltinCube, assets.BuiltinSphere, "nomesh"}
	for i := range n {
		p := mgl32.Vec3{rng.Float32()*300 - 150, rng.Float32()*40 - 20, rng.Float32()*300 - 150}
		m := mgl32.Translate3D(p[0], p[1], p[2]).Mul4(mgl32.HomogRotate3DY(rng.Float32() * 6)).Mul4(mgl32.Scale3D(1+rng.Float32()*3, 1, 1))
		if i%997 == 5 {
			m[13] = float32(inf)
		}
		d.Set(refs[rng.IntN(len(refs))], Instance{World: m, ID: uint32(i + 1)})
	}
	return d
}

var inf = mgl32.InfPos

// TestVisibleMatchesBruteForce: every instance whose box intersects the view is in a listed chunk, every listed
// chunk intersects it, nearest first, each at most once — for random scenes and cameras.
func TestVisibleMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 16))
	for round := range 30 {
		d := randomScene(rng, 3000)
		if err := d.Check(); err != nil {
			t.Fatal(err)
		}
		cam := DefaultCamera()
		cam.Pivot = mgl32.Vec3{rng.Float32()*200 - 100, 0, rng.Float32()*200 - 100}
		cam.Yaw, cam.Pitch, cam.Distance = rng.Float32()*360, -rng.Float32()*80, 5+rng.Float32()*200
		aspect := float32(1.5)
		f := NewFrustum(cam.Proj(aspect).Mul4(cam.View()))
		eye := cam.Eye()
		items := d.Visible(&f, eye, nil)
		type key struct{ b, c int32 }
		listed := map[key]bool{}
		for i, it := range items {
			k := key{it.Batch, it.Chunk}
			if listed[k] {
				t.Fatalf("round %d: chunk %v listed twice", round, k)
			}
			listed[k] = true
			c := d.batches[it.Batch].chunks[it.Chunk]
			if c.Len() == 0 || int(it.Instances) != c.Len() || d.batches[it.Batch].Mesh == nil {
				t.Fatalf("round %d: item %+v: chunk of %d instances, mesh %v", round, it, c.Len(), d.batches[it.Batch].Mesh)
			}
			if !f.IntersectsAABB(c.Bounds()) {
				t.Fatalf("round %d: chunk %v listed but outside the view", round, k)
			}
			if i > 0 && it.Dist < items[i-1].Dist {
				t.Fatalf("round %d: not nearest first: %v after %v", round, it.Dist, items[i-1].Dist)
			}
		}
		seen, drawn := 0, 0
		for bi, b := range d.batches {
			local := b.localBounds()
			for ci, c := range b.chunks {
				for _, in := range c.Instances {
					if b.Mesh == nil {
						continue
					}
					box := local.Transform(in.World)
					if finiteBox(box).IsEmpty() || !f.IntersectsAABB(box) { // (a broken matrix is nowhere to be seen)
						continue
					}
					seen++
					if !listed[key{int32(bi), int32(ci)}] {
						t.Fatalf("round %d: instance %d (box %v) is in view, its chunk is not listed", round, in.ID, box)
					}
				}
				if listed[key{int32(bi), int32(ci)}] {
					drawn += c.Len()
				}
			}
		}
		if drawn < seen {
			t.Fatalf("round %d: %d instances drawn, %d in view", round, drawn, seen)
		}
	}
}

// TestVisibleZoomedIn: looking closely at a corner of a 100×10×100 grid lists a small part of it.
func TestVisibleZoomedIn(t *testing.T) {
	d := NewDrawList()
	cube, _ := assets.Builtin(assets.BuiltinCube)
	d.SetMesh(assets.BuiltinCube, cube)
	id := uint32(1)
	for x := range 100 {
		for y := range 10 {
			for z := range 100 {
				d.Set(assets.BuiltinCube, Instance{World: mgl32.Translate3D(float32(x)*1.5, float32(y)*1.5, float32(z)*1.5), ID: id})
				id++
			}
		}
	}
	cam := DefaultCamera()
	cam.Frame(d.Bounds(), 1.5)
	all := count(d.Visible(ptr(NewFrustum(cam.Proj(1.5).Mul4(cam.View()))), cam.Eye(), nil))
	if all != d.Len() {
		t.Errorf("framed: %d of %d instances listed", all, d.Len())
	}
	cam.Pivot, cam.Distance = mgl32.Vec3{10, 0, 10}, 12
	near := count(d.Visible(ptr(NewFrustum(cam.Proj(1.5).Mul4(cam.View()))), cam.Eye(), nil))
	if near == 0 || near*10 > d.Len() {
		t.Errorf("zoomed in: %d of %d instances listed, want some and under a tenth", near, d.Len())
	}
	t.Logf("zoomed in on a corner: %d of %d instances listed", near, d.Len())
}

func ptr[T any](v T) *T { return &v }

func count(items []DrawItem) int {
	n := 0
	for _, it := range items {
		n += int(it.Instances)
	}
	return n
}

// TestRegroupSpreadScene: instances far apart do not become a chunk each: the cells grow.
func TestRegroupSpreadScene(t *testing.T) {
	d := NewDrawList()
	for i := range 5000 {
		d.Set("cube", inst(uint32(i+1), float32(i)*100))
	}
	if err := d.Check(); err != nil {
		t.Fatal(err)
	}
	chunks := 0
	for _, c := range d.Batch("cube").Chunks() {
		if c.Len() > 0 {
			chunks++
		}
	}
	if d.CellSize() <= DefaultCellSize || chunks*8 > d.Len() {
		t.Errorf("cell size %v, %d chunks for %d instances", d.CellSize(), chunks, d.Len())
	}
	// Every instance is still where it was.
	for i := range 5000 {
		if in, _, ok := d.Get(uint32(i + 1)); !ok || in.World != mgl32.Translate3D(float32(i)*100, 0, 0) {
			t.Fatalf("instance %d: %+v %v", i+1, in, ok)
		}
	}
}

// TestChunksHoldAtMostMaxChunk: a dense cell fills several chunks.
func TestChunksHoldAtMostMaxChunk(t *testing.T) {
	d := NewDrawList()
	for i := range 3*MaxChunk + 5 {
		d.Set("cube", inst(uint32(i+1), 0))
	}
	if err := d.Check(); err != nil {
		t.Fatal(err)
	}
	if n := len(d.Batch("cube").Chunks()); n != 4 {
		t.Errorf("%d chunks, want 4", n)
	}
	// Emptied room is used again before a new chunk is made.
	d.Remove(1)
	d.Set("cube", inst(999_999, 0))
	if n := len(d.Batch("cube").Chunks()); n != 4 {
		t.Errorf("after a remove and an add: %d chunks, want 4", n)
	}
	if err := d.Check(); err != nil {
		t.Fatal(err)
	}
}

func TestPacer(t *testing.T) {
	var p Pacer
	if p.PerTriangle() <= 0 {
		t.Fatal("no default cost")
	}
	p.Measure(1_000_000, 500*time.Millisecond) // 0.5 µs a triangle
	if got := p.PerTriangle(); got != 500*time.Nanosecond {
		t.Errorf("per triangle %v", got)
	}
	items := []DrawItem{{Triangles: 12_000}, {Triangles: 12_000}, {Triangles: 12_000}, {Triangles: 12_000}}
	// 6 ms each: 13 ms takes two; a tiny budget still takes one; 0 takes all.
	if n := p.Take(items, 13*time.Millisecond, 1); n != 2 {
		t.Errorf("Take(13 ms) = %d, want 2", n)
	}
	if n := p.Take(items, time.Microsecond, 1); n != 1 {
		t.Errorf("Take(1 µs) = %d, want 1", n)
	}
	if n := p.Take(items, 0, 1); n != 4 {
		t.Errorf("Take(0) = %d, want 4", n)
	}
	// 20 ms fits three (18 ms), and a rest of at most a quarter of it (a 1.5 ms chunk) is taken too rather than
	// left for a frame of its own; a 6 ms rest is not.
	short := []DrawItem{{Triangles: 12_000}, {Triangles: 12_000}, {Triangles: 12_000}, {Triangles: 3_000}}
	if n := p.Take(short, 20*time.Millisecond, 1); n != 4 {
		t.Errorf("Take(20 ms) of 6, 6, 6, 1.5 ms = %d, want 4", n)
	}
	if n := p.Take(items, 20*time.Millisecond, 1); n != 3 {
		t.Errorf("Take(20 ms) of 4 × 6 ms = %d, want 3", n)
	}
	if n := p.Take(items, 10*time.Millisecond, 1); n != 1 {
		t.Errorf("Take(10 ms) = %d, want 1", n)
	}
	// Thin: 24 ms of triangles in a 12 ms budget → every second instance, all chunks.
	if s, n := p.Thin(items, 12*time.Millisecond); s != 2 || n != 4 {
		t.Errorf("Thin(12 ms) = stride %d, %d items; want 2, 4", s, n)
	}
	if s, n := p.Thin(items, time.Second); s != 1 || n != 4 {
		t.Errorf("Thin(1 s) = stride %d, %d items; want 1, 4", s, n)
	}
	// Far too much: the coarsest stride, and only the nearest chunks.
	big := slices.Repeat([]DrawItem{{Triangles: 1_200_000}}, 10)
	if s, n := p.Thin(big, 20*time.Millisecond); s != MaxStride || n >= 10 || n < 1 {
		t.Errorf("Thin(12 M triangles, 20 ms) = stride %d, %d items", s, n)
	}
	// Measurements move the estimate gradually.
	p.Measure(1000, time.Millisecond) // 1 µs
	if got := p.PerTriangle(); got <= 500*time.Nanosecond || got >= time.Microsecond {
		t.Errorf("after a slower measurement: %v", got)
	}
}
