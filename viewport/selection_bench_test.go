package viewport

import (
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/assets"
)

// BenchmarkSelectAllDrawList times what the viewport does when everything is selected (Select All): the draw
// list's selection mask from the selected ids, and the box around what is drawn selected (the outline's screen
// rectangle), at 100,000 and 1,000,000 instances; ns/entity is per instance.
func BenchmarkSelectAllDrawList(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(map[int]string{100_000: "100k", 1_000_000: "1M"}[n], func(b *testing.B) {
			d := NewDrawList()
			ids := make([]uint32, n)
			for i := range n {
				ids[i] = uint32(i + 1)
				d.Set("cube", inst(ids[i], float32(i%1000)))
			}
			for b.Loop() {
				d.SetSelection(ids)
				if box, ok := d.SelectionBounds(); !ok || box.IsEmpty() {
					b.Fatal("no selection box")
				}
				b.StopTimer()
				d.SetSelection(nil)
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
		})
	}
}

// TestSelectionBoundsMatchesInstances: the box around what is drawn selected is the union of the selected
// instances' boxes, whether whole chunks are selected (their kept boxes are used), some of their instances, or
// instances flagged selected; random selections against that model.
func TestSelectionBoundsMatchesInstances(t *testing.T) {
	d := NewDrawList()
	const n = 5000
	for i := range n {
		in := inst(uint32(i+1), 0)
		in.World = mgl32.Translate3D(float32(i%50)*3, float32(i/50%10)*2, float32(i/500)*5).Mul4(mgl32.Scale3D(1, 2, 0.5))
		d.Set("cube", in)
	}
	d.SetMesh("cube", func() *assets.Mesh { m, _ := assets.Builtin(assets.BuiltinCube); return m }())
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 40 {
		var sel []uint32
		switch round % 4 {
		case 0: // everything
			for i := range n {
				sel = append(sel, uint32(i+1))
			}
		case 1: // a block of ids (whole chunks and parts of chunks)
			lo := rng.IntN(n)
			for id := lo; id < min(n, lo+rng.IntN(2000)); id++ {
				sel = append(sel, uint32(id+1))
			}
		default: // a few scattered ones
			for range rng.IntN(20) {
				sel = append(sel, uint32(rng.IntN(n)+1))
			}
		}
		d.SetSelection(sel)
		flagged := uint32(0)
		if round%3 == 0 {
			flagged = uint32(rng.IntN(n) + 1)
			d.SetFlag(flagged, FlagSelected, true)
		}
		want := EmptyAABB()
		for _, b := range d.batches {
			for _, ch := range b.chunks {
				for _, in := range ch.Instances {
					if d.Selected(in.ID) || in.ID == flagged {
						want = want.Union(b.localBounds().Transform(in.World))
					}
				}
			}
		}
		got, ok := d.SelectionBounds()
		if ok != !want.IsEmpty() || !nearVec(got.Min, want.Min, 1e-4) || !nearVec(got.Max, want.Max, 1e-4) {
			t.Fatalf("round %d (%d selected, flagged %d): box %v %v ok %v, want %v %v", round, len(sel), flagged, got.Min, got.Max, ok, want.Min, want.Max)
		}
		if flagged != 0 {
			d.SetFlag(flagged, FlagSelected, false)
		}
	}
}
