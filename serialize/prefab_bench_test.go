package serialize_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

// benchPrefab returns a 10-entity prefab (a body with nine parts) whose colours depend on shade.
func benchPrefab(shade float32) string {
	w := scene.NewWorld()
	body := w.Spawn(&scene.SceneID{ID: 1, Order: 1}, &scene.Name{Value: "Body"}, &ecs.Transform{Scale: mgl32.Vec3{1, 1, 1}},
		&scene.Mesh{Asset: scene.MeshCube}, &scene.Color{RGBA: [4]float32{shade, 0.2, 0.2, 1}})
	for i := range 9 {
		p := w.Spawn(&scene.SceneID{ID: uint64(2 + i), Order: float64(i + 1)}, &scene.Name{Value: fmt.Sprintf("Part %d", i)},
			&ecs.Transform{Position: mgl32.Vec3{float32(i%3) - 1, 1, float32(i/3) - 1}, Scale: mgl32.Vec3{0.3, 0.3, 0.3}},
			&scene.Mesh{Asset: scene.MeshSphere}, &scene.Color{RGBA: [4]float32{0.2, shade, 0.2, 1}})
		if err := w.SetParent(p, body); err != nil {
			panic(err)
		}
	}
	var b bytes.Buffer
	if err := serialize.Save(context.Background(), &b, &serialize.Scene{Name: "Enemy", World: w}, serialize.SaveOptions{}); err != nil {
		panic(err)
	}
	return b.String()
}

// benchScenes writes the prefab and a scene with n instances of it (every tenth with a colour
// overridden) into dir, and returns the scene's text and the same scene flattened (the instances
// unpacked into plain entities).
func benchScenes(tb testing.TB, dir string, n int) (instanced, flat []byte) {
	write(tb, filepath.Join(dir, "enemy.json"), benchPrefab(0.5))
	var sc strings.Builder
	sc.WriteString(`{ "format": "voltex.scene", "version": 2, "name": "Army", "entities": [`)
	for i := range n {
		if i > 0 {
			sc.WriteString(",\n")
		}
		fmt.Fprintf(&sc, `{ "id": %d, "name": "Enemy %d", "order": %d, "prefab": "enemy.json", "components": { "Transform": { "position": [%d, 0, %d] } } }`,
			i+1, i, i+1, 3*(i%100), 3*(i/100))
		if i%10 == 0 {
			fmt.Fprintf(&sc, `,
{ "id": %d, "instance": %d, "source": 3, "components": { "Color": { "rgba": [1, 1, 0, 1] } } }`, scene.InstanceID(uint64(i+1), 3), i+1)
		}
	}
	sc.WriteString("] }")
	s, err := serialize.Load(context.Background(), strings.NewReader(sc.String()), serialize.LoadOptions{File: filepath.Join(dir, "army.json")})
	if err != nil {
		tb.Fatal(err)
	}
	var ib bytes.Buffer
	if err := serialize.Save(context.Background(), &ib, s, serialize.SaveOptions{}); err != nil {
		tb.Fatal(err)
	}
	for _, e := range scene.EnsureIDs(s.World) {
		if r, ok := serialize.Instance(s.World, e); ok && r == e {
			if err := serialize.Unpack(s, e); err != nil {
				tb.Fatal(err)
			}
		}
	}
	var fb bytes.Buffer
	if err := serialize.Save(context.Background(), &fb, s, serialize.SaveOptions{}); err != nil {
		tb.Fatal(err)
	}
	return ib.Bytes(), fb.Bytes()
}

// BenchmarkLoad10kInstances loads a scene of 10,000 instances of a 10-entity prefab (110,000
// entities) and the same scene flattened (the instances unpacked into plain entities), in the same
// iterations, and reports their times and ratio. Target: instanced ≤ 1.5× flat.
func BenchmarkLoad10kInstances(b *testing.B) {
	dir := b.TempDir()
	inst, flat := benchScenes(b, dir, 10_000)
	file := filepath.Join(dir, "army.json")
	var ti, tf time.Duration
	for b.Loop() {
		start := time.Now()
		s, err := serialize.Load(context.Background(), bytes.NewReader(inst), serialize.LoadOptions{File: file})
		if err != nil || s.World.Len() != 110_000 {
			b.Fatalf("instanced: %v", err)
		}
		ti += time.Since(start)
		start = time.Now()
		s, err = serialize.Load(context.Background(), bytes.NewReader(flat), serialize.LoadOptions{File: file})
		if err != nil || s.World.Len() != 110_000 {
			b.Fatalf("flat: %v", err)
		}
		tf += time.Since(start)
	}
	b.ReportMetric(float64(ti.Microseconds())/1000/float64(b.N), "instanced-ms/op")
	b.ReportMetric(float64(tf.Microseconds())/1000/float64(b.N), "flat-ms/op")
	b.ReportMetric(float64(ti)/float64(tf), "instanced/flat")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkUpdate10kInstances edits the prefab under 10,000 live instances and brings them up to
// date (Prefabs.Reload and UpdateInstances): "colour" changes one entity's colour and another's
// position (a typical edit), "every-entity" every entity's colour. Target: ≤ 100 ms per update.
func BenchmarkUpdate10kInstances(b *testing.B) {
	for _, edit := range []string{"colour", "every-entity"} {
		b.Run(edit, func(b *testing.B) {
			dir := b.TempDir()
			inst, _ := benchScenes(b, dir, 10_000)
			file := filepath.Join(dir, "army.json")
			s, err := serialize.Load(context.Background(), bytes.NewReader(inst), serialize.LoadOptions{File: file})
			if err != nil {
				b.Fatal(err)
			}
			prefab := filepath.Join(dir, "enemy.json")
			versions := [2]string{benchPrefab(0.5), benchPrefab(0.5)}
			if edit == "colour" {
				versions[1] = strings.Replace(versions[1], `"rgba": [0.5, 0.2, 0.2, 1]`, `"rgba": [0.9, 0.2, 0.2, 1]`, 1)
				versions[1] = strings.Replace(versions[1], `"position": [0, 1, 0]`, `"position": [0, 2, 0]`, 1)
			} else {
				versions[1] = benchPrefab(0.9)
			}
			if versions[0] == versions[1] {
				b.Fatal("the edit changes nothing")
			}
			var total time.Duration
			i := 0
			for b.Loop() {
				i++
				b.StopTimer()
				write(b, prefab, versions[i%2])
				b.StartTimer()
				start := time.Now()
				rep := serialize.UpdateInstances(s, s.Prefabs.Reload(context.Background(), prefab))
				total += time.Since(start)
				if rep.Instances != 10_000 {
					b.Fatalf("updated %d instances", rep.Instances)
				}
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/update")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// TestUpdate10kInstancesKeepsOverrides checks what the benchmark measures: after the edit, the
// instances without an override show the prefab's new colour and the overridden ones keep theirs.
func TestUpdate10kInstancesKeepsOverrides(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 instances")
	}
	dir := t.TempDir()
	inst, _ := benchScenes(t, dir, 1000)
	s, err := serialize.Load(context.Background(), bytes.NewReader(inst), serialize.LoadOptions{File: filepath.Join(dir, "army.json")})
	if err != nil {
		t.Fatal(err)
	}
	prefab := filepath.Join(dir, "enemy.json")
	write(t, prefab, benchPrefab(0.9))
	rep := serialize.UpdateInstances(s, s.Prefabs.Reload(context.Background(), prefab))
	if rep.Instances != 1000 {
		t.Fatalf("updated %d", rep.Instances)
	}
	colors := ecs.NewMap[scene.Color](s.World)
	sids := ecs.NewMap[scene.SceneID](s.World)
	for i := range 1000 {
		root := uint64(i + 1)
		for src := uint64(1); src <= 10; src++ {
			e := entityByID(t, s.World, scene.InstanceID(root, src))
			want := [4]float32{0.2, 0.9, 0.2, 1}
			switch {
			case src == 1:
				want = [4]float32{0.9, 0.2, 0.2, 1}
			case src == 3 && i%10 == 0:
				want = [4]float32{1, 1, 0, 1}
			}
			if got := colors.Get(e).RGBA; got != want {
				t.Fatalf("instance %d entity %d (id %d): colour %v, want %v", i, src, sids.Get(e).ID, got, want)
			}
		}
		if i > 50 {
			break // entityByID is linear: a sample is enough
		}
	}
}
