package doc

import (
	"context"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

// timings sums the durations of named steps over a benchmark's iterations and reports each as ms/op and as ns per
// entity of what the step changed, and the process's CPU time (all threads: the collector's too) as cpu-ms/op, which
// a busy machine shifts less than wall time.
type timings struct {
	names []string
	total map[string]time.Duration
	cpu   map[string]time.Duration
	per   map[string]int
}

func (t *timings) time(name string, per int, fn func()) {
	if t.total == nil {
		t.total, t.cpu, t.per = map[string]time.Duration{}, map[string]time.Duration{}, map[string]int{}
	}
	if _, ok := t.total[name]; !ok {
		t.names = append(t.names, name)
	}
	t0, c0 := time.Now(), cpuTime()
	fn()
	t.total[name] += time.Since(t0)
	t.cpu[name] += cpuTime() - c0
	t.per[name] = per
}

func (t *timings) report(b *testing.B) {
	for _, n := range t.names {
		d := t.total[n]
		b.ReportMetric(float64(d.Microseconds())/1000/float64(b.N), n+"-ms/op")
		b.ReportMetric(float64(d.Nanoseconds())/float64(b.N)/float64(t.per[n]), n+"-ns/entity")
		b.ReportMetric(float64(t.cpu[n].Microseconds())/1000/float64(b.N), n+"-cpu-ms/op")
	}
	b.ReportMetric(0, "ns/op")
}

// BenchmarkEdits1M times the document's half of the edits a user makes on a flat scene of 1,000,000 cubes (the
// `grid` file bench-ui opens): select all and delete, undo and redo it; a 100,000-cube spawn beside the scene
// (the plan made untimed, as the editor makes it on a goroutine), its undo and redo; one field edit applied to
// every selected entity. ns/entity is per entity the step changed. (Target of each step, to the picture: ≤ 300 ms.)
func BenchmarkEdits1M(b *testing.B) {
	must := func(err error) {
		b.Helper()
		if err != nil {
			b.Fatal(err)
		}
	}
	d := bigSelectGrid(b, [3]int{100, 100, 100})
	n := d.Len()
	b.Run("delete", func(b *testing.B) {
		var t timings
		for b.Loop() {
			d.Selection().SelectAll()
			t.time("delete", n, func() { must(d.DeleteSelection()) })
			t.time("undo", n, func() { must(d.History().Undo()) })
			t.time("redo", n, func() { must(d.History().Redo()) })
			must(d.History().Undo())
			if d.Len() != n {
				b.Fatalf("%d entities after delete, undo, redo, undo; want %d", d.Len(), n)
			}
		}
		t.report(b)
	})
	b.Run("spawn100k", func(b *testing.B) {
		p := grid100k("")
		p.Spin = nil
		p.Origin = mgl32.Vec3{200, 0, 0}
		var t timings
		for b.Loop() {
			b.StopTimer()
			j, err := d.PrepareGrid(p)
			must(err)
			must(j.Run(context.Background(), nil))
			b.StartTimer()
			t.time("spawn", 100_000, func() { _, _, err = d.FinishGrid(j); must(err) })
			t.time("undo", 100_000, func() { must(d.History().Undo()) })
			t.time("redo", 100_000, func() { must(d.History().Redo()) })
			must(d.History().Undo())
		}
		t.report(b)
	})
	b.Run("field", func(b *testing.B) {
		tr, _ := ecs.ComponentIDOf[ecs.Transform](d.EditWorld())
		d.Selection().SelectAll()
		sel := d.Selection().Entities()
		var t timings
		x := float32(0)
		for b.Loop() {
			x++
			t.time("field", n, func() {
				d.BeginEdit("Edit")
				must(d.SetField(sel, tr, "position[0]", x))
				d.EndEdit()
			})
			t.time("undo", n, func() { must(d.History().Undo()) })
		}
		t.report(b)
	})
}
