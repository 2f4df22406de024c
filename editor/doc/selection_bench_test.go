package doc

import (
	"context"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/ecs"
)

// selectionSizes are the scene sizes the selection benchmarks run at: the target sizes, 100,000 and 1,000,000 cubes.
var selectionSizes = []struct {
	name  string
	count [3]int
}{{"100k", [3]int{100, 100, 10}}, {"1M", [3]int{100, 100, 100}}}

// bigGrid is a document with a root grid of count cubes (as `voltex-editor grid` writes one), nothing selected.
func bigSelectGrid(b *testing.B, count [3]int) *Document {
	b.Helper()
	d := New("", Options{})
	p := grid100k("")
	p.Count = count
	if _, _, err := d.SpawnGrid(context.Background(), p, nil); err != nil {
		b.Fatal(err)
	}
	d.Selection().Clear()
	return d
}

// BenchmarkSelectAll times Selection.SelectAll with nothing selected before (Ctrl+A), and what the panels read of
// it once: the selection's length, the active entity, whether an entity is selected, the selected entities.
// Each iteration clears the selection untimed. ns/entity is per entity of the scene.
func BenchmarkSelectAll(b *testing.B) {
	for _, s := range selectionSizes {
		b.Run(s.name, func(b *testing.B) {
			d := bigSelectGrid(b, s.count)
			n := d.Len()
			var sel, read time.Duration
			var buf []ecs.Entity
			for b.Loop() {
				t0 := time.Now()
				d.Selection().SelectAll()
				t1 := time.Now()
				if d.Selection().Len() != n {
					b.Fatalf("%d selected of %d", d.Selection().Len(), n)
				}
				buf = d.Selection().AppendEntities(buf[:0])
				if _, ok := d.Selection().Active(); !ok || !d.Selection().IsSelected(buf[n/2]) {
					b.Fatal("nothing active")
				}
				read += time.Since(t1)
				sel += t1.Sub(t0)
				b.StopTimer()
				d.Selection().Clear()
				b.StartTimer()
			}
			b.ReportMetric(float64(sel.Nanoseconds())/float64(b.N)/float64(n), "selectall-ns/entity")
			b.ReportMetric(float64(read.Nanoseconds())/float64(b.N)/float64(n), "read-ns/entity")
			b.ReportMetric(float64(sel.Microseconds())/1000/float64(b.N), "selectall-ms/op")
			b.ReportMetric(0, "ns/op")
		})
	}
}
