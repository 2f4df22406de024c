package glrender

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
)

// objDir is the shared OBJ test models, from this package's folder.
const objDir = "../../../shared/testdata/obj"

// onGround returns the world matrix that stands mesh m on the ground,
// centred on the Y axis, scaled by s.
func onGround(m *assets.Mesh, s float32) mgl32.Mat4 {
	c := m.Center()
	return mgl32.Scale3D(s, s, s).Mul4(mgl32.Translate3D(-c[0], -m.Min[1], -c[2]))
}

type goldenScene struct {
	name  string
	build func(t *testing.T) (*viewport.DrawList, viewport.Camera)
}

func goldenScenes() []goldenScene {
	return []goldenScene{
		{"cube", func(t *testing.T) (*viewport.DrawList, viewport.Camera) {
			// The reference picture: a lit cube on the grid.
			dl := viewport.NewDrawList()
			dl.SetMesh(assets.BuiltinCube, builtin(t, assets.BuiltinCube))
			dl.Set(assets.BuiltinCube, viewport.Instance{ID: 1, World: mgl32.Translate3D(0, 0.5, 0), Color: [4]float32{0.85, 0.45, 0.25, 1}})
			cam := viewport.DefaultCamera()
			cam.Pivot = mgl32.Vec3{0, 0.5, 0}
			cam.Distance = 6
			return dl, cam
		}},
		{"selection", func(t *testing.T) (*viewport.DrawList, viewport.Camera) {
			dl := cubesScene(t, 3)
			dl.SetSelected(5, true)
			dl.SetSelected(9, true)
			return dl, framed(dl, testW, testH)
		}},
		{"cubes_20x20", func(t *testing.T) (*viewport.DrawList, viewport.Camera) {
			dl := cubesScene(t, 20)
			return dl, framed(dl, testW, testH)
		}},
		{"shapes", func(t *testing.T) (*viewport.DrawList, viewport.Camera) {
			// Every built-in mesh, with rotation and non-uniform scale (the
			// cofactor normals must keep the lighting right).
			dl := viewport.NewDrawList()
			for _, ref := range assets.BuiltinRefs() {
				dl.SetMesh(ref, builtin(t, ref))
			}
			dl.Set(assets.BuiltinCube, viewport.Instance{ID: 1, Color: [4]float32{0.9, 0.3, 0.3, 1},
				World: mgl32.Translate3D(-1.5, 0.75, 0).Mul4(mgl32.HomogRotate3DY(math.Pi / 6)).Mul4(mgl32.Scale3D(1, 1.5, 0.6))})
			dl.Set(assets.BuiltinSphere, viewport.Instance{ID: 2, Color: [4]float32{0.3, 0.8, 0.4, 1},
				World: mgl32.Translate3D(0.5, 0.6, 0.5).Mul4(mgl32.Scale3D(1.2, 1.2, 1.2))})
			dl.Set(assets.BuiltinPlane, viewport.Instance{ID: 3, Color: [4]float32{0.3, 0.5, 0.95, 1},
				World: mgl32.Translate3D(2, 1, -1).Mul4(mgl32.HomogRotate3DX(-math.Pi / 4)).Mul4(mgl32.Scale3D(2, 1, 1.5))})
			cam := viewport.DefaultCamera()
			cam.Frame(dl.Bounds(), float32(testW)/testH)
			return dl, cam
		}},
	}
}

func TestGolden(t *testing.T) {
	for _, sc := range goldenScenes() {
		t.Run(sc.name, func(t *testing.T) {
			dl, cam := sc.build(t)
			withRenderer(t, testW, testH, func(r *Renderer) {
				compareGolden(t, sc.name, render(t, r, dl, cam))
			})
		})
	}
}

// TestGoldenOBJ renders every model of ../shared/testdata/obj standing on
// the grid, loaded by the assets OBJ parser.
func TestGoldenOBJ(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(objDir, "*.obj"))
	if err != nil || len(files) == 0 {
		if _, serr := os.Stat(filepath.Dir(objDir)); os.IsNotExist(serr) {
			t.Skipf("%s is absent (a clone outside this setup): no OBJ models to render", objDir)
		}
		t.Fatalf("no OBJ models in %s: %v", objDir, err)
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			m, err := assets.LoadOBJ(path, assets.DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			dl := viewport.NewDrawList()
			ref := "models/" + name
			dl.SetMesh(ref, m)
			// Scale to about 4 units so the grid reads the same for all.
			s := 4 / max(m.Radius()*2, 1e-3)
			dl.Set(ref, viewport.Instance{ID: 1, World: onGround(m, s), Color: [4]float32{0.75, 0.72, 0.65, 1}})
			cam := viewport.DefaultCamera()
			cam.Frame(dl.Bounds(), float32(testW)/testH)
			withRenderer(t, testW, testH, func(r *Renderer) {
				img := render(t, r, dl, cam)
				if s := r.Stats(); s.Triangles != m.TriangleCount() || s.DrawCalls != 1 {
					t.Errorf("drew %d triangles in %d calls, want %d in 1", s.Triangles, s.DrawCalls, m.TriangleCount())
				}
				if r.ReadID(testW/2, testH/2) != 1 {
					t.Errorf("the model is not at the centre of the framed view")
				}
				compareGolden(t, "obj_"+name[:len(name)-len(".obj")], img)
			})
		})
	}
}
