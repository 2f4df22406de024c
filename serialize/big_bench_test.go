package serialize

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"syscall"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// The editor's save and open of a 1,000,000-cube scene (target: save ≤ 1.5 s at 1M), as the editor does
// them: the scene the grid subcommand writes (random ids), opened with LoadFile (so the world holds the
// entities in file order, as after opening), saved by SaveFile on a job (temporary file, fsync, rename,
// backup, folder sync) reading the world itself (doc.PrepareSave lends it to the job). Opt-in by size: make
// bench (about 1.5 GB of memory).

// bigSceneFile writes the 1M-cube grid (as `voltex-editor grid --nx 100 --ny 100 --nz 100` does, with
// fixed ids) into b's temporary folder and returns its path.
func bigSceneFile(b *testing.B) string { return gridSceneFile(b, 1_000_000) }

// gridSceneFile writes a grid of n cubes (100×100 layers, n a multiple of 10,000) as bigSceneFile does.
func gridSceneFile(b *testing.B, n int) string {
	p := scene.GridParams{Count: [3]int{100, 100, n / 10_000}, Spacing: mgl32.Vec3{1.5, 1.5, 1.5},
		ColorFrom: [4]float32{1, 1, 1, 1}, ColorTo: [4]float32{1, 1, 1, 1}}
	s, err := GridScene(p, "Cubes", 1)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), fmt.Sprintf("grid-%d.json", n))
	if err := SaveFile(context.Background(), path, s, SaveOptions{}); err != nil {
		b.Fatal(err)
	}
	return path
}

func fileSize(b *testing.B, path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return st.Size()
}

// BenchmarkSaveFile1M is the job's part of the editor's save of an opened 1M-cube scene: SaveFile of the
// world itself, which the editor lends to the job (ecs.World.Lend) rather than copying it. Sub-benchmarks time
// the parts on their own: clone (World.Clone, which play mode uses), readcopy (World.ReadCopy, what the save
// copied on the loop thread before the world was lent, and still copies for a scene with prefab instances or
// when an edit comes before the job starts), encode (Save into io.Discard) and the whole save.
func BenchmarkSaveFile1M(b *testing.B) {
	src := bigSceneFile(b)
	s, err := LoadFile(context.Background(), src, LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	n := float64(s.World.Len())
	size := fileSize(b, src)
	out := filepath.Join(b.TempDir(), "saved.json")
	// ns/entity is wall-clock time; cpu-ns/entity the process's CPU time (all goroutines, the GC included),
	// which a busy machine disturbs less.
	per := func(b *testing.B, cpu0 time.Duration) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/entity")
		b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N)/n, "cpu-ns/entity")
	}
	// clone, and readcopy: what the editor's save copies.
	for name, copyOf := range map[string]func(*ecs.World) *ecs.World{"clone": (*ecs.World).Clone, "readcopy": (*ecs.World).ReadCopy} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				if c := copyOf(s.World); c.Len() != s.World.Len() {
					b.Fatal("the copy lost entities")
				}
			}
			per(b, cpu)
		})
	}
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		old := saveWorkers
		saveWorkers = func() int { return workers }
		b.Run(fmt.Sprintf("encode/workers=%d", workers), func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				if err := Save(context.Background(), discard{}, s, SaveOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			per(b, cpu)
		})
		b.Run(fmt.Sprintf("savefile/workers=%d", workers), func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				if err := SaveFile(context.Background(), out, s, SaveOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			per(b, cpu)
			if got := fileSize(b, out); got != size {
				b.Fatalf("saved %d bytes, the file had %d", got, size)
			}
		})
		saveWorkers = old
	}
}

// cpuTime returns the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkLoadFile1M is the editor's open of the 1M-cube scene (LoadFile into a new world).
func BenchmarkLoadFile1M(b *testing.B) {
	src := bigSceneFile(b)
	size := fileSize(b, src)
	runtime.GC()
	b.SetBytes(size)
	b.ReportAllocs()
	var n int
	cpu := cpuTime()
	for b.Loop() {
		s, err := LoadFile(context.Background(), src, LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		n = s.World.Len()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
	b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/entity")
}

// BenchmarkValidate is voltex-editor validate of cube grids (ValidateFile with the tools' options and
// garbage-collector target) against one load of the same file (LoadFile, timed before the loop): ns/entity
// and cpu-ns/entity are validate's, x-load its time over the load's. Sizes 10,000 and 1,000,000 (target:
// ≤ 2 s); -short runs the smallest.
func BenchmarkValidate(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		if testing.Short() && n > 10_000 {
			continue
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			src := gridSceneFile(b, n)
			defer debug.SetGCPercent(debug.SetGCPercent(GCPercent))
			// As the tools validate (their asset check finds the built-in cube without a look at the disk).
			opts := LoadOptions{CheckWorldMatrices: true, CheckAsset: func(string) error { return nil }}
			runtime.GC()
			start := time.Now()
			if _, err := LoadFile(context.Background(), src, opts); err != nil {
				b.Fatal(err)
			}
			load := time.Since(start)
			runtime.GC()
			b.SetBytes(fileSize(b, src))
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				if _, err := ValidateFile(context.Background(), src, opts); err != nil {
					b.Fatal(err)
				}
			}
			per := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			b.ReportMetric(per/float64(n), "ns/entity")
			b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/entity")
			b.ReportMetric(per/float64(load.Nanoseconds()), "x-load")
		})
	}
}

// discard is io.Discard without its ReadFrom (Save writes buffers; this keeps the copy honest).
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
