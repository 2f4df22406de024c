package merge

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

// mergeBenchFiles returns a 100,000-cube scene file and two edits of it: ours moves 1 % of the
// cubes (every 100th), theirs recolours another 1 % (every 100th, offset by 50) and renames a few
// of ours' too (a different field of the same entities).
func mergeBenchFiles(b *testing.B, n int) (base, ours, theirs []byte) {
	p := scene.GridParams{Count: [3]int{100, 1, n / 100}, Spacing: mgl32.Vec3{1.5, 1.5, 1.5},
		ColorFrom: [4]float32{0.2, 0.5, 1, 1}, ColorTo: [4]float32{1, 0.3, 0.1, 1},
		Spin: &scene.Spin{Axis: mgl32.Vec3{0, 1, 0}, Speed: 45}}
	base, err := serialize.Grid(p, "Bench", 1)
	if err != nil {
		b.Fatal(err)
	}
	edit := func(fn func(i int, e *serialize.RawEntity)) []byte {
		s, err := serialize.ReadRaw(context.Background(), bytes.NewReader(base), serialize.LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		for i := range s.Entities {
			fn(i, &s.Entities[i])
		}
		var out bytes.Buffer
		if err := serialize.WriteRaw(context.Background(), &out, s); err != nil {
			b.Fatal(err)
		}
		return out.Bytes()
	}
	ours = edit(func(i int, e *serialize.RawEntity) {
		if i%100 == 0 {
			e.Components = setCompOn(e, "Transform", `{ "position": [1, 2, 3], "rotation": [0, 0, 0], "scale": [1, 1, 1] }`)
		}
	})
	theirs = edit(func(i int, e *serialize.RawEntity) {
		if i%100 == 50 {
			e.Components = setCompOn(e, "Color", `{ "rgba": [0, 1, 0, 1] }`)
		}
		if i%1000 == 0 {
			e.Name = "renamed"
		}
	})
	return base, ours, theirs
}

func setCompOn(e *serialize.RawEntity, name, json string) []scene.RawComponent {
	s := &serialize.RawScene{Entities: []serialize.RawEntity{*e}}
	setComp(e.ID, name, json)(s)
	return s.Entities[0].Components
}

// BenchmarkMerge100k merges three 100,000-entity scenes (1 % edited on each side: reading the
// three files, merging, writing the result) and, in the same loop, loads one of them into a world
// with serialize.Load. Target: merge ≤ 3× load (the merge/load metric).
func BenchmarkMerge100k(b *testing.B) {
	const n = 100_000
	base, ours, theirs := mergeBenchFiles(b, n)
	ctx := context.Background()
	var tLoad, tMerge time.Duration
	b.SetBytes(int64(len(base) + len(ours) + len(theirs)))
	b.ReportAllocs()
	for b.Loop() {
		t0 := time.Now()
		s, err := serialize.Load(ctx, bytes.NewReader(base), serialize.LoadOptions{})
		if err != nil || s.World.Len() != n {
			b.Fatal(err)
		}
		t1 := time.Now()
		var raws [3]*serialize.RawScene
		for i, data := range [][]byte{base, ours, theirs} {
			if raws[i], err = serialize.ReadRaw(ctx, bytes.NewReader(data), serialize.LoadOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		res := Merge(raws[0], raws[1], raws[2])
		var out bytes.Buffer
		out.Grow(len(ours) + len(ours)/8)
		if err := serialize.WriteRaw(ctx, &out, res.Scene); err != nil || len(res.Conflicts) != 0 {
			b.Fatal(err, res.Conflicts)
		}
		t2 := time.Now()
		tLoad += t1.Sub(t0)
		tMerge += t2.Sub(t1)
	}
	b.ReportMetric(float64(tLoad.Nanoseconds())/float64(b.N)/n, "load-ns/entity")
	b.ReportMetric(float64(tMerge.Nanoseconds())/float64(b.N)/n, "merge-ns/entity")
	b.ReportMetric(float64(tMerge)/float64(tLoad), "merge/load")
}
