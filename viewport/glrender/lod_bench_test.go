package glrender

import (
	"math/rand/v2"
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

// reportWhole draws dl seen by cam once, then once a loop of b, and reports the wall and CPU ms a picture.
func reportWhole(b *testing.B, r *Renderer, dl *viewport.DrawList, cam viewport.Camera) {
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
}

// grid1M is a list of 1,000,000 cubes (100×100×100) and a camera that frames them whole in a w×h picture.
func grid1M(b *testing.B, w, h int) (*viewport.DrawList, viewport.Camera) {
	dl := viewport.NewDrawList()
	dl.SetMesh(assets.BuiltinCube, builtin(b, assets.BuiltinCube))
	editorGrid(b, 100, 100, 100, 0, 1, dl)
	cam := viewport.DefaultCamera()
	cam.Frame(dl.Bounds(), float32(w)/float32(h))
	return dl, cam
}

// BenchmarkPicture1M draws the whole picture of 1,000,000 cubes (100×100×100) framed whole at the editor's
// viewport size, and at 16×16 pixels (what the vertices cost): ms per picture with the GPU (llvmpipe) work finished,
// and CPU ms (llvmpipe's threads too). Then the same picture without the grid, without the occlusion queries
// (occlude.go), without points (points.go) and without either, for comparison.
func BenchmarkPicture1M(b *testing.B) {
	const w, h = 960, 670
	dl, cam := grid1M(b, w, h)
	withRenderer(b, w, h, func(r *Renderer) {
		reportWhole(b, r, dl, cam)
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

// BenchmarkPictureStacked1M draws the picture of 1,000,000 cubes (100×100×100, in a scene file's random order)
// after a field set on all of them: X = 7.25, 100 cubes stacked on each of 10,000 places, framed as before. The
// copies of an instance drawn before in the picture are not drawn (copies.go); "chunkonly" leaves out only each
// chunk's own copies, "allcopies" draws them all. ms per picture with the GPU (llvmpipe) work finished.
func BenchmarkPictureStacked1M(b *testing.B) {
	const w, h = 960, 670
	grid, cam := grid1M(b, w, h)
	dl := viewport.NewDrawList()
	dl.SetMesh(assets.BuiltinCube, builtin(b, assets.BuiltinCube))
	for _, k := range rand.New(rand.NewPCG(1, 2)).Perm(grid.Len()) { // a scene file's order
		in, _, _ := grid.Get(uint32(k + 1))
		dl.Set(assets.BuiltinCube, in)
	}
	for id := uint32(1); id <= 1_000_000; id++ {
		in, _, _ := dl.Get(id)
		m := in.World
		m[12] = 7.25
		dl.SetWorld(id, m)
	}
	withRenderer(b, w, h, func(r *Renderer) {
		reportWhole(b, r, dl, cam)
		drawn := 0
		for _, bs := range r.pics.lists.cur.batches {
			for _, cs := range bs.chunks {
				drawn += cs.buf.pkept
			}
		}
		b.ReportMetric(float64(drawn), "points-drawn")
		r.d.chunkCopiesOnly = true
		ms0, c0 := timeRenders(b, r, dl, cam, 2)
		r.d.chunkCopiesOnly = false
		b.ReportMetric(ms0, "chunkonly-ms")
		b.ReportMetric(c0, "chunkonly-cpu-ms")
		r.d.allCopies = true
		ms, c := timeRenders(b, r, dl, cam, 2)
		r.d.allCopies = false
		b.ReportMetric(ms, "allcopies-ms")
		b.ReportMetric(c, "allcopies-cpu-ms")
	})
}
