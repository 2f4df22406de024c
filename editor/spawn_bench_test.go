package editor

import (
	"context"
	"path/filepath"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

// BenchmarkSpawnFrames1M times the first spawn of 100,000 cubes beside a scene of 1,000,000 opened from its file:
// the command (its cubes planned before, as behind the grid dialog's preview) and the two App.frame calls after
// it, windowless with a fake renderer, for a CPU profile of what the e2e BenchmarkUI's "spawn 100k" row spends.
// Each spawn is into a newly opened editor, since what grows at the first spawn after an open (arrays kept by
// entity index) grows once only. Page faults make it vary by a third from run to run here.
func BenchmarkSpawnFrames1M(b *testing.B) {
	p := scene.DefaultGrid()
	p.Count = [3]int{100, 100, 100}
	s, err := serialize.GridScene(p, "Big", 1)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "big.json")
	if err := serialize.SaveFile(context.Background(), path, s, serialize.SaveOptions{}); err != nil {
		b.Fatal(err)
	}
	g := scene.DefaultGrid()
	g.Count = [3]int{100, 10, 100}
	g.Origin = mgl32.Vec3{0, 40, 0}
	var spawn time.Duration
	for b.Loop() {
		b.StopTimer()
		tb := &iterTB{B: b}
		f := newAppFixture(tb, Options{ScenePath: path})
		d := f.a.ws.Doc()
		for d.Len() != 1_000_000 || f.a.ws.Busy() {
			f.frame()
			d = f.a.ws.Doc()
		}
		f.frames(3)
		j, err := d.PrepareGrid(g) // made ready behind the dialog's preview, as the editor's readyGrid does
		if err == nil {
			err = j.Run(context.Background(), nil)
		}
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		t0 := time.Now()
		pprof.Do(context.Background(), pprof.Labels("step", "spawn"), func(context.Context) {
			f.a.ws.SpawnGrid(g, nil, j)
			for d.Len() != 1_100_000 || f.a.ws.Busy() {
				f.frame()
			}
			f.frames(2)
		})
		spawn += time.Since(t0)
		b.StopTimer()
		tb.cleanup()
		b.StartTimer()
	}
	b.ReportMetric(float64(spawn.Microseconds())/1000/float64(b.N), "spawn-ms/op")
	b.ReportMetric(0, "ns/op")
}

// iterTB is b whose Cleanup functions run at the end of one benchmark iteration (cleanup), not of the benchmark:
// a fixture per iteration (an ImGui context each) then never outlives it.
type iterTB struct {
	*testing.B
	fns []func()
}

func (t *iterTB) Cleanup(fn func()) { t.fns = append(t.fns, fn) }

func (t *iterTB) cleanup() {
	for i := len(t.fns) - 1; i >= 0; i-- {
		t.fns[i]()
	}
	t.fns = nil
}
