package glrender

import (
	"testing"
	"time"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/voltex-editor/voltex/viewport"
)

// BenchmarkComposeSelectAll times what Select All costs the renderer once the picture is drawn: the selection
// composed over 100,000 cubes in view, every one selected (the selection uploaded, the tint and the outline over the
// whole image), each ended by glFinish so that llvmpipe's work counts. It reports ms per compose.
func BenchmarkComposeSelectAll(b *testing.B) {
	const n = 100_000
	const w, h = 1200, 760 // about the editor's viewport in a 1600×1000 window
	dl := bigScene(b, n)
	cam := viewport.DefaultCamera()
	cam.Frame(dl.Bounds(), 1)
	all := make([]uint32, n)
	for i := range all {
		all[i] = uint32(i + 1)
	}
	withRenderer(b, w, h, func(r *Renderer) {
		r.Settings.Grid = false
		if err := r.Render(dl, cam); err != nil {
			b.Fatal(err)
		}
		gl.Finish()
		renders := r.Stats().Renders
		var spent time.Duration
		for b.Loop() {
			dl.SetSelection(all) // a new selection version: composed again
			t0 := time.Now()
			if done, err := r.Draw(dl, cam, viewport.DrawOptions{}); !done || err != nil {
				b.Fatalf("compose: done %v, %v", done, err)
			}
			gl.Finish()
			spent += time.Since(t0)
		}
		if r.Stats().Renders != renders {
			b.Fatal("the selection drew the picture again")
		}
		b.ReportMetric(float64(spent.Microseconds())/1000/float64(b.N), "ms/compose")
	})
}
