package glrender

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
)

// TestClosedMeshes: the built-in cube is a closed surface wound outwards (its back faces are culled); the plane is
// open (both sides drawn, its underside lit), and so is a cube turned inside out.
func TestClosedMeshes(t *testing.T) {
	for ref, want := range map[string]bool{assets.BuiltinCube: true, assets.BuiltinPlane: false} {
		if got := closedMesh(builtin(t, ref)); got != want {
			t.Errorf("closedMesh(%s) = %v, want %v", ref, got, want)
		}
	}
	inside := *builtin(t, assets.BuiltinCube)
	inside.Indices = append([]uint32(nil), inside.Indices...)
	for i := 0; i < len(inside.Indices); i += 3 {
		inside.Indices[i+1], inside.Indices[i+2] = inside.Indices[i+2], inside.Indices[i+1]
	}
	if closedMesh(&inside) {
		t.Error("a cube wound inwards counts as closed")
	}
}

// TestMirroredCubeIsDrawn: a cube with a negative scale (its triangles wound the other way round) looks exactly like
// the same cube unmirrored — culling leaves out back faces only of closed meshes whose instances are not mirrored —
// and the plane is drawn from below.
func TestMirroredCubeIsDrawn(t *testing.T) {
	scene := func(mirror float32) *viewport.DrawList {
		dl := viewport.NewDrawList()
		dl.SetMesh(assets.BuiltinCube, builtin(t, assets.BuiltinCube))
		dl.SetMesh(assets.BuiltinPlane, builtin(t, assets.BuiltinPlane))
		dl.Set(assets.BuiltinCube, viewport.Instance{ID: 1, Color: [4]float32{0.8, 0.5, 0.3, 1}, World: mgl32.Translate3D(-2, 0, 0)})
		dl.Set(assets.BuiltinCube, viewport.Instance{ID: 2, Color: [4]float32{0.8, 0.5, 0.3, 1},
			World: mgl32.Translate3D(2, 0, 0).Mul4(mgl32.Scale3D(mirror, 1, 1))})
		dl.Set(assets.BuiltinPlane, viewport.Instance{ID: 3, Color: [4]float32{1, 1, 1, 1}, World: mgl32.Translate3D(0, 3, 0)})
		return dl
	}
	mirrored, plain := scene(-1), scene(1)
	cam := viewport.DefaultCamera()
	cam.Pitch = 10 // from below the plane
	cam.Frame(plain.Bounds(), float32(testW)/testH)
	withRenderer(t, testW, testH, func(r *Renderer) {
		want := render(t, r, plain, cam)
		got := render(t, r, mirrored, cam)
		if _, n := diffImages(got, want, 2); n != 0 {
			t.Errorf("the mirrored cube differs from the plain one in %d pixels", n)
		}
		for id, at := range map[uint32]mgl32.Vec3{1: {-2, 0, 0}, 2: {2, 0, 0}, 3: {0, 3, 0}} {
			x, y, ok := cam.WorldToPixel(at, testW, testH)
			if !ok {
				t.Fatalf("instance %d out of view", id)
			}
			if got := r.ReadID(int(x), int(y)); got != id {
				t.Errorf("the middle of instance %d reads %d", id, got)
			}
		}
	})
}
