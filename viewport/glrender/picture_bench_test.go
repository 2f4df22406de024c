package glrender

import (
	"syscall"
	"testing"
	"time"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
)

// editorGrid is the editor benchmark's scene: nx×ny×nz unit cubes 1.5 apart, centred on the origin.
func editorGrid(b *testing.B, nx, ny, nz int, x0 float32, first uint32, dl *viewport.DrawList) {
	for z := range nz {
		for y := range ny {
			for x := range nx {
				dl.Set(assets.BuiltinCube, viewport.Instance{
					World: mgl32.Translate3D(x0+float32(x)*1.5-float32(nx)*0.75, float32(y)*1.5-float32(ny)*0.75, float32(z)*1.5-float32(nz)*0.75),
					Color: [4]float32{0.9, 0.6, 0.3, 1},
					ID:    first + uint32((z*ny+y)*nx+x),
				})
			}
		}
	}
}

// cpuTime is the CPU time the process (all its threads: llvmpipe's too) has used: less sensitive to other
// processes than the wall clock on a busy machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkPicture100k draws the whole picture of the editor benchmark's 100,000 cubes (100×10×100) at the
// editor's viewport size, and the picture of a 100,000-cube spawn beside it drawn as an additive patch: ms per
// picture with the GPU (llvmpipe) work finished.
func BenchmarkPicture100k(b *testing.B) {
	const w, h = 960, 670
	dl := viewport.NewDrawList()
	dl.SetMesh(assets.BuiltinCube, builtin(b, assets.BuiltinCube))
	editorGrid(b, 100, 10, 100, 0, 1, dl)
	editorGrid(b, 100, 10, 100, 160, 200_001, dl)
	cam := viewport.DefaultCamera()
	cam.Frame(dl.Bounds(), float32(w)/h)
	for i := range uint32(100_000) {
		dl.Remove(200_001 + i)
	}
	withRenderer(b, w, h, func(r *Renderer) {
		if err := r.Render(dl, cam); err != nil {
			b.Fatal(err)
		}
		var whole, spawn, wholeCPU float64
		n := 0
		for b.Loop() {
			n++
			t, c := time.Now(), cpuTime()
			if err := r.Render(dl, cam); err != nil {
				b.Fatal(err)
			}
			gl.Finish()
			whole += time.Since(t).Seconds()
			wholeCPU += (cpuTime() - c).Seconds()
			editorGrid(b, 100, 10, 100, 160, 200_001, dl)
			t = time.Now()
			drawDone(b, r, dl, cam, viewport.DrawOptions{})
			gl.Finish()
			spawn += time.Since(t).Seconds()
			if s := r.Stats(); s.Instances > 100_000 {
				b.Fatalf("the spawn drew %d instances", s.Instances)
			}
			for i := range uint32(100_000) {
				dl.Remove(200_001 + i)
			}
		}
		// The same picture at 16×16 pixels: what the vertices cost.
		if err := r.Resize(16, 16); err != nil {
			b.Fatal(err)
		}
		t, c := time.Now(), cpuTime()
		for range 3 {
			if err := r.Render(dl, cam); err != nil {
				b.Fatal(err)
			}
			gl.Finish()
		}
		b.ReportMetric(time.Since(t).Seconds()*1000/3, "whole-16x16-ms")
		b.ReportMetric((cpuTime()-c).Seconds()*1000/3, "whole-16x16-cpu-ms")
		b.ReportMetric(wholeCPU*1000/float64(n), "whole-cpu-ms")
		b.ReportMetric(whole*1000/float64(n), "whole-ms")
		b.ReportMetric(spawn*1000/float64(n), "spawn-ms")
	})
}
