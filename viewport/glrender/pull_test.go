package glrender

import (
	"image"
	"math"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
)

// TestFlatVertices: the built-in cube and plane are flat-shaded and shared their vertices between faces (8 and 4),
// every triangle keeps its corners and winding (turned at most) and its last vertex carries its normal; the sphere
// is smooth and is drawn as it is.
func TestFlatVertices(t *testing.T) {
	for _, c := range []struct {
		ref  string
		want int // vertices, 0 for a mesh that is not flat-shaded
	}{{assets.BuiltinCube, 8}, {assets.BuiltinPlane, 4}, {assets.BuiltinSphere, 0}} {
		m := builtin(t, c.ref)
		v, idx, ok := flatVertices(m)
		if c.want == 0 {
			if ok {
				t.Errorf("%s: drawn with flat normals, but it is smooth", c.ref)
			}
			continue
		}
		if !ok || len(v)/assets.FloatsPerVertex != c.want || len(idx) != len(m.Indices) {
			t.Errorf("%s: flat %v, %d vertices, %d indices; want %d vertices, %d indices",
				c.ref, ok, len(v)/assets.FloatsPerVertex, len(idx), c.want, len(m.Indices))
			continue
		}
		out := &assets.Mesh{Vertices: v, Indices: idx}
		for tri := 0; tri < len(idx); tri += 3 {
			var src, got [3]mgl32.Vec3
			for k := range 3 {
				src[k], got[k] = m.Position(int(m.Indices[tri+k])), out.Position(int(idx[tri+k]))
			}
			turned := false
			for d := range 3 {
				if got == [3]mgl32.Vec3{src[d], src[(d+1)%3], src[(d+2)%3]} {
					turned = true
				}
			}
			if !turned {
				t.Errorf("%s: triangle %d is %v, from %v: not the same corners in the same winding", c.ref, tri/3, got, src)
			}
			if n, want := out.Normal(int(idx[tri+2])), m.Normal(int(m.Indices[tri])); n != want {
				t.Errorf("%s: triangle %d's last vertex has normal %v, want %v", c.ref, tri/3, n, want)
			}
		}
	}
}

// pullScene is cubes and planes of every kind of world matrix (rotated, scaled unevenly, mirrored), spheres, and
// enough cubes for several chunks.
func pullScene(t *testing.T) *viewport.DrawList {
	dl := spread(t, 30, [4]float32{0.7, 0.5, 0.3, 1})
	dl.SetMesh(assets.BuiltinPlane, builtin(t, assets.BuiltinPlane))
	dl.SetMesh(assets.BuiltinSphere, builtin(t, assets.BuiltinSphere))
	id := uint32(5000)
	for i := range 12 {
		a := float32(i) * 0.5
		w := mgl32.Translate3D(float32(i)*3-18, 4, float32(i%3)*3).Mul4(mgl32.HomogRotate3D(a, mgl32.Vec3{1, 2, 0.5}.Normalize()))
		switch i % 3 {
		case 1:
			w = w.Mul4(mgl32.Scale3D(2, 0.5, 1.2))
		case 2:
			w = w.Mul4(mgl32.Scale3D(-1, 1, 1)) // mirrored: drawn without culling, its faces lit the same
		}
		for _, ref := range []string{assets.BuiltinCube, assets.BuiltinPlane, assets.BuiltinSphere} {
			id++
			col := [4]float32{0.3 + 0.05*float32(i), 0.8, 0.4, 1}
			dl.Set(ref, viewport.Instance{ID: id, Color: col, World: mgl32.Translate3D(0, float32(len(ref))*0.5, 0).Mul4(w)})
		}
	}
	return dl
}

// TestPulledEqualsInstanced: pictures drawn pulled with shared flat vertices (pull.go, flat.go) are those of the
// plain instanced draw: the same id at every pixel, colours within rounding; whole, thinned while the view moves, and
// patched after a change.
func TestPulledEqualsInstanced(t *testing.T) {
	const w, h = testW, testH
	var plain, pulled [3]*image.RGBA
	var plainIDs, pulledIDs [3][]uint32
	for _, opts := range []bool{false, true} {
		dl := pullScene(t)
		cam := framed(dl, w, h)
		c := glContext(t)
		if err := c.Do(func() {
			r, err := newRenderer(true)
			if err != nil {
				t.Fatal(err)
			}
			r.d.pull, r.d.flat = opts, opts
			defer r.Delete()
			if err := r.Resize(w, h); err != nil {
				t.Fatal(err)
			}
			imgs, ids := &plain, &plainIDs
			if opts {
				imgs, ids = &pulled, &pulledIDs
			}
			grab := func(k int) {
				imgs[k] = r.ReadImage()
				for y := range h {
					for x := range w {
						ids[k] = append(ids[k], r.ReadID(x, y))
					}
				}
			}
			render(t, r, dl, cam)
			grab(0)
			// Thinned: every few instances of each chunk, as the pacer plans (the same plan for both).
			r.pics.pretendCost(1000, time.Millisecond)
			cam.Orbit(10, 0)
			if done, err := r.Draw(dl, cam, viewport.DrawOptions{Budget: 5 * time.Millisecond, Interactive: true}); !done || err != nil {
				t.Fatalf("thinned picture: done %v, %v", done, err)
			}
			if s := r.Stats(); s.Stride < 2 {
				t.Fatalf("the thinned picture has stride %d", s.Stride)
			}
			grab(1)
			// Patched: one cube moved, one added (an additive patch from the chunk's own buffer).
			drawDone(t, r, dl, cam, viewport.DrawOptions{})
			dl.SetWorld(5001, mgl32.Translate3D(0, 6, 0))
			drawDone(t, r, dl, cam, viewport.DrawOptions{})
			dl.Set(assets.BuiltinCube, viewport.Instance{ID: 9000, Color: [4]float32{0.2, 0.3, 0.9, 1}, World: mgl32.Translate3D(-3, 8, 2)})
			drawDone(t, r, dl, cam, viewport.DrawOptions{})
			grab(2)
			if opts {
				for m, gm := range r.d.meshes {
					if want := m.Ref != assets.BuiltinSphere; (gm.pulled != nil) != want || gm.flat != want {
						t.Errorf("%s: pulled %v, flat %v; want both %v", m.Ref, gm.pulled != nil, gm.flat, want)
					}
				}
			}
		}); err != nil {
			t.Fatal(err)
		}
	}
	for k, name := range []string{"whole", "thinned", "patched"} {
		diff := 0
		for i := range plainIDs[k] {
			if plainIDs[k][i] != pulledIDs[k][i] {
				diff++
			}
		}
		if diff != 0 {
			t.Errorf("%s: %d of %d pixels show another entity pulled", name, diff, len(plainIDs[k]))
		}
		worst := 0
		for i := range plain[k].Pix {
			worst = max(worst, int(math.Abs(float64(plain[k].Pix[i])-float64(pulled[k].Pix[i]))))
		}
		if worst > 2 {
			_, n := diffImages(plain[k], pulled[k], 2)
			t.Errorf("%s: %d pixels differ by more than 2 (at most %d)", name, n, worst)
		}
	}
}
