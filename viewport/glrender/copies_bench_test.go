package glrender

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/viewport"
)

// BenchmarkCopyScan finds the copies among a chunk's 2,048 instances (noteCopies, at each upload of a chunk): a
// grid's distinct cubes, and the same set to one X (rows of 16 stacked): ns an instance.
func BenchmarkCopyScan(b *testing.B) {
	inst := make([]viewport.Instance, 2048)
	for i := range inst {
		inst[i].World = mgl32.Translate3D(float32(i%16)*1.5, float32(i/16%16)*1.5, float32(i/256)*1.5)
	}
	stacked := make([]viewport.Instance, len(inst))
	copy(stacked, inst)
	for i := range stacked {
		stacked[i].World[12] = 3
	}
	for _, c := range []struct {
		name string
		inst []viewport.Instance
	}{{"distinct", inst}, {"stacked", stacked}} {
		b.Run(c.name, func(b *testing.B) {
			var s copyScan
			copies := 0
			for b.Loop() {
				copies = s.scan(c.inst)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(c.inst)), "ns/instance")
			b.ReportMetric(float64(copies), "copies")
		})
	}
}
