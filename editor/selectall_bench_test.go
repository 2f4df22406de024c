package editor

import (
	"context"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/ecs/scene"
)

// BenchmarkSelectAllFrame times Select All (Ctrl+A) in the whole editor — App.frame as the GUI loop runs it, in a
// windowless ImGui context with a fake renderer and the test probe on — over a root grid of 100,000 and 1,000,000
// cubes (as `voltex-editor grid` writes one): the frame that selects all (the document's step, the hierarchy, the
// inspector's multi-selection summary, the viewport's selection, the probe) and the frame after it; then a frame with
// everything selected once the inspector's summary is complete (summary-frames: the frames it took), against a frame
// with nothing selected. Each iteration clears the selection untimed.
func BenchmarkSelectAllFrame(b *testing.B) {
	for _, s := range []struct {
		name  string
		count [3]int
	}{{"100k", [3]int{100, 10, 100}}, {"1M", [3]int{100, 100, 100}}} {
		b.Run(s.name, func(b *testing.B) {
			f := newAppFixture(b, Options{})
			d := f.a.ws.Doc()
			p := scene.DefaultGrid()
			p.Count = s.count
			if _, _, err := d.SpawnGrid(context.Background(), p, nil); err != nil {
				b.Fatal(err)
			}
			d.Selection().Clear()
			f.frames(3)
			n := d.Len()
			var first, next, steady, idle time.Duration
			scanFrames := 0
			for b.Loop() {
				t0 := time.Now()
				pprof.SetGoroutineLabels(pprof.WithLabels(context.Background(), pprof.Labels("part", "first")))
				f.a.ws.CmdSelectAll()
				f.frame()
				t1 := time.Now()
				pprof.SetGoroutineLabels(pprof.WithLabels(context.Background(), pprof.Labels("part", "next")))
				f.frame()
				pprof.SetGoroutineLabels(context.Background())
				first += t1.Sub(t0)
				next += time.Since(t1)
				b.StopTimer()
				for f.a.insp.pending { // the inspector's summary of a big selection is made over several frames
					f.frame()
					scanFrames++
				}
				t3 := time.Now()
				f.frame()
				steady += time.Since(t3)
				if f.st.SelectedCount != n {
					b.Fatalf("the probe says %d selected of %d", f.st.SelectedCount, n)
				}
				d.Selection().Clear()
				f.frames(2)
				t2 := time.Now()
				f.frame()
				idle += time.Since(t2)
				b.StartTimer()
			}
			b.ReportMetric(float64(first.Microseconds())/1000/float64(b.N), "selectall-frame-ms")
			b.ReportMetric(float64(next.Microseconds())/1000/float64(b.N), "next-frame-ms")
			b.ReportMetric(float64(idle.Microseconds())/1000/float64(b.N), "unselected-frame-ms")
			b.ReportMetric(float64(steady.Microseconds())/1000/float64(b.N), "all-selected-frame-ms")
			b.ReportMetric(float64(scanFrames)/float64(b.N), "summary-frames")
			b.ReportMetric(float64(first.Nanoseconds())/float64(b.N)/float64(n), "selectall-ns/entity")
			b.ReportMetric(0, "ns/op")
		})
	}
}
