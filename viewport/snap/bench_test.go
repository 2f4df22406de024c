package snap

import (
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
)

// scene100k is 100,000 instances of a cube and a sphere on a 316×316 grid (two units apart), seen from above at
// an angle, as a big scene is framed.
func scene100k(b *testing.B) (*viewport.DrawList, View) {
	dl := viewport.NewDrawList()
	for _, ref := range []string{"builtin:cube", "builtin:sphere"} {
		m, ok := assets.Builtin(ref)
		if !ok {
			b.Fatalf("no %s", ref)
		}
		dl.SetMesh(ref, m)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	const side = 316
	for i := range 100_000 {
		ref := "builtin:cube"
		if rng.IntN(2) == 0 {
			ref = "builtin:sphere"
		}
		x, z := float32(i%side)*2-side, float32(i/side)*2-side
		dl.Set(ref, viewport.Instance{World: mgl32.Translate3D(x, 0, z), ID: uint32(i + 1)})
	}
	cam := viewport.DefaultCamera()
	cam.Distance = 120
	return dl, ViewOf(cam, 1280, 720)
}

// benchSnap runs query at random pixels of the 100k scene; it fails when no query found anything.
func benchSnap(b *testing.B, query func(dl *viewport.DrawList, c *Cache, v View, mouse mgl32.Vec2) bool) {
	dl, v := scene100k(b)
	var c Cache
	rng := rand.New(rand.NewPCG(2, 2))
	found := 0
	b.ResetTimer()
	for b.Loop() {
		if query(dl, &c, v, mgl32.Vec2{rng.Float32() * float32(v.W), rng.Float32() * float32(v.H)}) {
			found++
		}
	}
	if found == 0 {
		b.Fatal("nothing found")
	}
}

func notFirst(id uint32) bool { return id != 1 }

func BenchmarkVertexSnap100k(b *testing.B) {
	benchSnap(b, func(dl *viewport.DrawList, c *Cache, v View, mouse mgl32.Vec2) bool {
		_, ok := Vertex(dl, c, v, mouse, 12, notFirst)
		return ok
	})
}

func BenchmarkSurfaceSnap100k(b *testing.B) {
	benchSnap(b, func(dl *viewport.DrawList, c *Cache, v View, mouse mgl32.Vec2) bool {
		_, ok := Surface(dl, c, v.Ray(mouse[0], mouse[1]), notFirst)
		return ok
	})
}
