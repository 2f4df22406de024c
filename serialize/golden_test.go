package serialize

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

var update = flag.Bool("update", false, "rewrite the golden files (testdata/, game/testdata/) instead of comparing")

// golden compares got with the file at path, or rewrites it with -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from what the code produces (run go test -update if the change is intended):\n%s", path, firstDiff(want, got))
	}
}

// firstDiff shows the first differing line.
func firstDiff(want, got []byte) string {
	wl, gl := bytes.Split(want, []byte("\n")), bytes.Split(got, []byte("\n"))
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g []byte
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if !bytes.Equal(w, g) {
			return "line " + itoa(i+1) + ":\n want: " + string(w) + "\n  got: " + string(g)
		}
	}
	return "(same lines, different bytes)"
}

func itoa(n int) string { return string(appendInt(nil, n)) }

func saveBytes(t testing.TB, s *Scene) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Save(context.Background(), &buf, s, SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func exportBytes(t testing.TB, s *Scene) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Export(context.Background(), &buf, s); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// cubesGrid is testdata/cubes.json (shipped as scenes/cubes.json): the many_cubes demo.
func cubesGrid() scene.GridParams {
	p := scene.DefaultGrid()
	p.ColorFrom = [4]float32{0.2, 0.5, 1, 1}
	p.ColorTo = [4]float32{1, 0.35, 0.1, 1}
	p.Spin = &scene.Spin{Axis: mgl32.Vec3{0, 1, 0}, Speed: 45}
	return p
}

// solarScene is testdata/solar.json (shipped as scenes/solar.json): a small solar system whose orbits are
// spinning pivot entities, so the hierarchy does the orbiting.
func solarScene() *Scene {
	w := scene.NewWorld()
	// The file was made before ids were random: it keeps its ids 1, 2, ….
	nextID := uint64(0)
	assignID := func(e ecs.Entity) {
		nextID++
		order := scene.NextOrder(w, w.Parent(e))
		ecs.NewMap[scene.SceneID](w).Add(e, scene.SceneID{ID: nextID, Order: order})
	}
	tr := func(pos, rot mgl32.Vec3, s float32) *ecs.Transform {
		return &ecs.Transform{Position: pos, Rotation: rot, Scale: mgl32.Vec3{s, s, s}}
	}
	body := func(name string, parent ecs.Entity, pos mgl32.Vec3, size float32, rgba [4]float32, spin float32) ecs.Entity {
		e := w.Spawn(tr(pos, mgl32.Vec3{}, size), &scene.Name{Value: name}, &scene.Mesh{Asset: scene.MeshSphere},
			&scene.Color{RGBA: rgba}, &scene.Spin{Axis: mgl32.Vec3{0, 1, 0}, Speed: spin})
		if !parent.IsZero() {
			if err := w.SetParent(e, parent); err != nil {
				panic(err)
			}
		}
		assignID(e)
		return e
	}
	orbit := func(name string, parent ecs.Entity, tilt, speed float32) ecs.Entity {
		e := w.Spawn(tr(mgl32.Vec3{}, mgl32.Vec3{tilt, 0, 0}, 1), &scene.Name{Value: name},
			&scene.Spin{Axis: mgl32.Vec3{0, 1, 0}, Speed: speed})
		if !parent.IsZero() {
			if err := w.SetParent(e, parent); err != nil {
				panic(err)
			}
		}
		assignID(e)
		return e
	}
	sun := body("Sun", ecs.Entity{}, mgl32.Vec3{}, 3, [4]float32{1, 0.8, 0.25, 1}, 10)
	earthOrbit := orbit("Earth orbit", sun, 0, 30)
	earth := body("Earth", earthOrbit, mgl32.Vec3{3, 0, 0}, 0.35, [4]float32{0.2, 0.45, 1, 1}, 120)
	moonOrbit := orbit("Moon orbit", earth, 5.1, 90)
	body("Moon", moonOrbit, mgl32.Vec3{2.2, 0, 0}, 0.3, [4]float32{0.75, 0.75, 0.72, 1}, 0)
	marsOrbit := orbit("Mars orbit", sun, 1.85, 16)
	body("Mars", marsOrbit, mgl32.Vec3{4.6, 0, 0}, 0.2, [4]float32{0.9, 0.35, 0.2, 1}, 110)
	cam := w.Spawn(tr(mgl32.Vec3{0, 12, 32}, mgl32.Vec3{-20, 0, 0}, 1), &scene.Name{Value: "Game camera"},
		&scene.Camera{FOV: 50, Near: 0.1, Far: 500})
	assignID(cam)
	return &Scene{Name: "Solar system", World: w, Camera: &scene.EditorCamera{Yaw: 20, Pitch: -30, Distance: 45}}
}

// TestSceneFiles keeps the example scenes in testdata/ in sync with the code
// that makes them, and checks that each loads and saves back byte for byte.
// (The scenes/ shipped for users start as copies of them; tests never read
// scenes/, which users edit.)
func TestSceneFiles(t *testing.T) {
	cubes, err := Grid(cubesGrid(), "Cubes", 1)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/cubes.json", cubes)
	golden(t, "testdata/solar.json", saveBytes(t, solarScene()))
	golden(t, "testdata/empty.json", saveBytes(t, &Scene{Name: "Empty", World: scene.NewWorld()}))
	for _, name := range []string{"cubes", "solar", "empty"} {
		path := "testdata/" + name + ".json"
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s, err := LoadFile(context.Background(), path, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Warnings) > 0 {
			t.Errorf("%s: warnings %v", path, s.Warnings)
		}
		if got := saveBytes(t, s); !bytes.Equal(got, data) {
			t.Errorf("%s: save(load(f)) differs from f:\n%s", path, firstDiff(data, got))
		}
	}
	// The version 0 example loads through the migration; its canonical form
	// is a golden file.
	v0, err := os.ReadFile("testdata/legacy-v0.json")
	if err != nil {
		t.Fatal(err)
	}
	out, err := Format(v0, "legacy-v0.json")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/legacy-v0.migrated.json", out)
	// A version 1 file (the solar scene in version 1) keeps its ids and gets
	// order keys that keep its sibling order (v1: by id): exactly
	// testdata/solar.json.
	v1, err := os.ReadFile("testdata/solar-v1.json")
	if err != nil {
		t.Fatal(err)
	}
	out, err = Format(v1, "solar-v1.json")
	if err != nil {
		t.Fatal(err)
	}
	if want := saveBytes(t, solarScene()); !bytes.Equal(out, want) {
		t.Errorf("solar-v1.json migrated differs from the solar scene:\n%s", firstDiff(want, out))
	}
	// Exports of the examples; the game package's example reads solar's.
	s, err := LoadFile(context.Background(), "testdata/solar.json", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "game/testdata/solar.export.json", exportBytes(t, s))
}
