package snap

import (
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/viewport"
)

// cubeCorners returns the corners of a unit cube (local) and, for each, how many of its three faces face eye
// (local): 3 for the corner nearest it, 0 for the one on the far side, 1 or 2 on the outline.
func cubeCorners(eye mgl32.Vec3) (corners [8]mgl32.Vec3, facing [8]int) {
	for i := range 8 {
		c := mgl32.Vec3{float32(i&1) - 0.5, float32(i>>1&1) - 0.5, float32(i>>2) - 0.5}
		corners[i] = c
		for a := range 3 {
			// the face on c's side of axis a faces eye when eye is beyond its plane
			if c[a] > 0 && eye[a] > 0.5 || c[a] < 0 && eye[a] < -0.5 {
				facing[i]++
			}
		}
	}
	return corners, facing
}

// TestVertexSeesTheOutlineNotTheFarSide: a cube turned, scaled and seen from all round, the mouse on each corner's
// pixel: a corner with a face towards the camera (the near one, and those on the outline, where the ray only grazes
// the cube) is found exactly; the far corner, hidden behind the cube's own faces, is never found.
func TestVertexSeesTheOutlineNotTheFarSide(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	var c Cache
	outline, far := 0, 0
	for range 200 {
		world := randMatrix(rng, 2)
		dl := cubes(world)
		cam := randCamera(rng)
		cam.Pivot, cam.Distance = world.Col(3).Vec3(), 5+rng.Float32()*10
		v := ViewOf(cam, 800, 600)
		eye := world.Inv().Mul4x1(cam.Eye().Vec4(1)).Vec3()
		corners, facing := cubeCorners(eye)
		for i, lc := range corners {
			if eye.Sub(lc).Len() < 1e-2 {
				continue
			}
			p := world.Mul4x1(lc.Vec4(1)).Vec3()
			px, _, ok := v.Pixel(p)
			if !ok || drawnNear(v, world, corners[:], i, px) {
				continue
			}
			h, found := Vertex(dl, &c, v, px, 14, nil)
			switch {
			case facing[i] == 0 && found && h.Point == p:
				t.Fatalf("camera %+v: the far corner %v was found", cam, lc)
			case facing[i] == 0:
				far++
			case !found || h.Point != p:
				t.Fatalf("camera %+v: the corner %v with %d faces towards the camera was not found: %+v %v", cam, lc, facing[i], h, found)
			case facing[i] < 3:
				outline++
			}
		}
	}
	if outline < 500 || far < 150 {
		t.Fatalf("%d corners on the outline and %d far ones tested", outline, far)
	}
}

// drawnNear reports whether a corner other than corners[i] is drawn within two pixels of px (then the nearer to the
// camera of the two may rightly be found).
func drawnNear(v View, world mgl32.Mat4, corners []mgl32.Vec3, i int, px mgl32.Vec2) bool {
	for j, o := range corners {
		if q, _, ok := v.Pixel(world.Mul4x1(o.Vec4(1)).Vec3()); j != i && ok && q.Sub(px).Len() < 2 {
			return true
		}
	}
	return false
}

// TestVertexBehindAnotherMeshIsNotFound: a cube hides another from the camera; with the mouse on the hidden cube's
// nearest corner, that corner is not found. When the front cube is one that does not count (the moved one:
// accept refuses it), it neither snaps nor hides, and the corner is found.
func TestVertexBehindAnotherMeshIsNotFound(t *testing.T) {
	cam := viewport.DefaultCamera()
	cam.Pivot = mgl32.Vec3{}
	v := ViewOf(cam, 800, 600)
	eye := cam.Eye()
	corners, facing := cubeCorners(eye)
	var near mgl32.Vec3
	for i, f := range facing {
		if f == 3 {
			near = corners[i]
		}
	}
	px, _, _ := v.Pixel(near)
	toEye := eye.Normalize().Mul(3)
	front := mgl32.Translate3D(toEye[0], toEye[1], toEye[2]).Mul4(mgl32.Scale3D(2, 2, 2))
	var c Cache
	if h, ok := Vertex(cubes(mgl32.Ident4()), &c, v, px, 14, nil); !ok || h.Point != near {
		t.Fatalf("alone, the cube's nearest corner %v is not found: %+v %v", near, h, ok)
	}
	dl := cubes(mgl32.Ident4(), front)
	if h, ok := Vertex(dl, &c, v, px, 14, nil); ok && h.ID == 1 {
		t.Fatalf("behind the front cube, the hidden cube's vertex %v was found", h.Point)
	}
	if h, ok := Vertex(dl, &c, v, px, 14, func(id uint32) bool { return id != 2 }); !ok || h.Point != near {
		t.Fatalf("with the front cube refused, the corner %v is not found: %+v %v", near, h, ok)
	}
}

// TestVertexOfAHiddenEntityIsNotFound: an entity the editor hides (Builder.SetHide: left out of the draw list) is
// neither snapped to nor hides what is behind it; a locked one is drawn, so it is (the editor's lock only refuses
// picking and moving).
func TestVertexOfAHiddenEntityIsNotFound(t *testing.T) {
	cam := viewport.DefaultCamera()
	v := ViewOf(cam, 800, 600)
	corners, facing := cubeCorners(cam.Eye())
	var near mgl32.Vec3
	for i, f := range facing {
		if f == 3 {
			near = corners[i]
		}
	}
	px, _, _ := v.Pixel(near)
	w := scene.NewWorld()
	cube := func(m mgl32.Mat4) ecs.Entity {
		t, _ := ecs.TransformFromMatrix(m, mgl32.Vec3{})
		return w.Spawn(&t, &scene.Mesh{Asset: scene.MeshCube})
	}
	toEye := cam.Eye().Sub(cam.Pivot).Normalize().Mul(3)
	back := cube(mgl32.Ident4())
	front := cube(mgl32.Translate3D(toEye[0], toEye[1], toEye[2]).Mul4(mgl32.Scale3D(2, 2, 2)))
	b := viewport.NewBuilder(w, viewport.BuiltinMeshes{})
	b.Update()
	var c Cache
	find := func(hidden ecs.Entity) (VertexHit, bool) {
		b.SetHide(func(e ecs.Entity) bool { return e == hidden })
		b.Update()
		return Vertex(b.DrawList(), &c, v, px, 14, nil)
	}
	if h, ok := find(ecs.Entity{}); ok && h.ID == viewport.EntityID(back) {
		t.Fatalf("behind the front cube, the back cube's vertex %v was found", h.Point)
	}
	if h, ok := find(front); !ok || h.ID != viewport.EntityID(back) || h.Point != near {
		t.Fatalf("with the front cube hidden, the back cube's corner %v is not found: %+v %v", near, h, ok)
	}
	if h, ok := find(back); ok && h.ID == viewport.EntityID(back) {
		t.Fatalf("the hidden back cube's vertex %v was found", h.Point)
	}
}
