package glrender

import (
	"testing"
	"time"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
)

// timeRenders renders dl seen by cam n times, each a new version of the list (instance 1 set again) with the GPU
// (llvmpipe) work finished, and returns the wall and the CPU milliseconds a render.
func timeRenders(b *testing.B, r *Renderer, dl *viewport.DrawList, cam viewport.Camera, n int) (wall, cpu float64) {
	in, _, _ := dl.Get(1)
	t, c := time.Now(), cpuTime()
	for range n {
		dl.SetWorld(1, in.World)
		if err := r.Render(dl, cam); err != nil {
			b.Fatal(err)
		}
		gl.Finish()
	}
	return time.Since(t).Seconds() * 1000 / float64(n), (cpuTime() - c).Seconds() * 1000 / float64(n)
}

// BenchmarkPicture1M draws the whole picture of 1,000,000 cubes (100×100×100) framed whole at the editor's
// viewport size, and at 16×16 pixels (what the vertices cost): ms per picture with the GPU (llvmpipe) work finished,
// and CPU ms (llvmpipe's threads too). Then the same picture without the grid, without the occlusion queries
// (occlude.go), without points (points.go) and without either, for comparison.
func BenchmarkPicture1M(b *testing.B) {
	const w, h = 960, 670
	dl := viewport.NewDrawList()
	dl.SetMesh(assets.BuiltinCube, builtin(b, assets.BuiltinCube))
	editorGrid(b, 100, 100, 100, 0, 1, dl)
	cam := viewport.DefaultCamera()
	cam.Frame(dl.Bounds(), float32(w)/h)
	withRenderer(b, w, h, func(r *Renderer) {
		timeRenders(b, r, dl, cam, 1)
		var wall, cpu float64
		n := 0
		for b.Loop() {
			n++
			ms, c := timeRenders(b, r, dl, cam, 1)
			wall, cpu = wall+ms, cpu+c
		}
		b.ReportMetric(wall/float64(n), "whole-ms")
		b.ReportMetric(cpu/float64(n), "whole-cpu-ms")
		b.ReportMetric(float64(r.pics.shown.points), "points")
		b.ReportMetric(float64(r.Stats().Triangles), "triangles")
		for _, m := range []struct {
			name                  string
			small, grid, pts, occ bool
		}{{"16x16", true, true, true, true}, {"nogrid", false, false, true, true}, {"noocc", false, true, true, false},
			{"nopoints", false, true, false, true}, {"neither", false, true, false, false}} {
			size := w
			if m.small {
				size = 16
			}
			if err := r.Resize(size, size*h/w); err != nil {
				b.Fatal(err)
			}
			r.Settings.Grid, r.d.noPoints, r.pics.noOcclusion = m.grid, !m.pts, !m.occ
			ms, c := timeRenders(b, r, dl, cam, 2)
			b.ReportMetric(ms, m.name+"-ms")
			b.ReportMetric(c, m.name+"-cpu-ms")
		}
	})
}
