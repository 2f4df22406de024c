package merge

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
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
func BenchmarkMerge100k(b *testing.B) { benchMerge(b, 100_000) }

// BenchmarkMerge1M is BenchmarkMerge100k at 1,000,000 cubes (sides of about 320 MB, read within
// SideLimits as voltex-editor merge reads them). Target: merge ≤ 3× load.
func BenchmarkMerge1M(b *testing.B) { benchMerge(b, 1_000_000) }

// BenchmarkDiff1M compares two 1,000,000-cube scenes (base and theirs of BenchmarkMerge1M: reading
// both within SideLimits, listing the changes, writing them as text) and, in the same loop, loads
// one of them into a world. Target: diff ≤ 2× load (the diff/load metric).
func BenchmarkDiff1M(b *testing.B) {
	const n = 1_000_000
	base, _, theirs := mergeBenchFiles(b, n)
	benchAgainstLoad(b, n, "diff", base, func(ctx context.Context) {
		sides := readSides(b, ctx, base, theirs)
		a, c := sides[0], sides[1]
		changes := Diff(a, c)
		if len(changes) != n/100+n/1000 {
			b.Fatalf("%d changes", len(changes))
		}
		if err := WriteText(io.Discard, a, c, changes); err != nil {
			b.Fatal(err)
		}
	})
}

func benchMerge(b *testing.B, n int) {
	base, ours, theirs := mergeBenchFiles(b, n)
	b.SetBytes(int64(len(base) + len(ours) + len(theirs)))
	path := filepath.Join(b.TempDir(), "merged.json")
	benchAgainstLoad(b, n, "merge", base, func(ctx context.Context) {
		sides := readSides(b, ctx, base, ours, theirs)
		res := Merge(sides[0], sides[1], sides[2])
		if len(res.Conflicts) != 0 {
			b.Fatal(res.Conflicts)
		}
		// Streamed to a file, as voltex-editor merge writes it.
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		w := bufio.NewWriterSize(f, 1<<20)
		if err := serialize.WriteRaw(ctx, w, res.Scene); err != nil {
			b.Fatal(err)
		}
		if err := errors.Join(w.Flush(), f.Close()); err != nil {
			b.Fatal(err)
		}
	})
}

// readSides reads the sides as voltex-editor diff and merge do: at once, within SideLimits.
func readSides(b *testing.B, ctx context.Context, data ...[]byte) []*serialize.RawScene {
	reads := make([]func() (*serialize.RawScene, error), len(data))
	for i, d := range data {
		reads[i] = func() (*serialize.RawScene, error) {
			return serialize.ReadRaw(ctx, bytes.NewReader(d), serialize.LoadOptions{Limits: SideLimits})
		}
	}
	sides, errs := ReadSides(reads...)
	if err := errors.Join(errs...); err != nil {
		b.Fatal(err)
	}
	return sides
}

// benchAgainstLoad times op and, in the same loop, a load of scene (n entities) into a world,
// and reports op's time over the load's (the OP/load metric), and the same for the CPU time the
// process used in each (OP-cpu/load-cpu: what the work costs, which other work on the machine
// changes less than the time it takes).
func benchAgainstLoad(b *testing.B, n int, op string, scene []byte, run func(ctx context.Context)) {
	ctx := context.Background()
	var tLoad, tOp, cLoad, cOp time.Duration
	b.ReportAllocs()
	for b.Loop() {
		t0, c0 := time.Now(), processCPU()
		s, err := serialize.Load(ctx, bytes.NewReader(scene), serialize.LoadOptions{})
		if err != nil || s.World.Len() != n {
			b.Fatal(err)
		}
		runtime.GC() // the world is not held while op runs
		t1, c1 := time.Now(), processCPU()
		// As voltex-editor diff and merge run (holdCollector in editor/program): no collections while
		// the sides are read, compared or merged, and written, within a memory limit.
		held := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
		metrics.Read(held)
		limit := debug.SetMemoryLimit(int64(held[0].Value.Uint64()-held[1].Value.Uint64()) + 6*int64(len(scene)) + 512<<20)
		percent := debug.SetGCPercent(-1)
		run(ctx)
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
		t2, c2 := time.Now(), processCPU()
		tLoad += t1.Sub(t0)
		tOp += t2.Sub(t1)
		cLoad += c1 - c0
		cOp += c2 - c1
		runtime.GC()
	}
	b.ReportMetric(float64(tLoad.Nanoseconds())/float64(b.N)/float64(n), "load-ns/entity")
	b.ReportMetric(float64(tOp.Nanoseconds())/float64(b.N)/float64(n), op+"-ns/entity")
	b.ReportMetric(float64(tOp)/float64(tLoad), op+"/load")
	if cLoad > 0 {
		b.ReportMetric(float64(cOp)/float64(cLoad), op+"-cpu/load-cpu")
	}
}
