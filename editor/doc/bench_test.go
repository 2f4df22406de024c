package doc

import (
	"context"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// grid100k is the target 100×100×10 = 100,000-cube grid, spinning, with a gradient.
func grid100k(group string) scene.GridParams {
	p := scene.DefaultGrid()
	p.Count = [3]int{100, 100, 10}
	p.ColorFrom, p.ColorTo = [4]float32{1, 0, 0, 1}, [4]float32{0, 0, 1, 1}
	p.Spin = &scene.Spin{Axis: mgl32.Vec3{0, 1, 0}, Speed: 30}
	p.Group = group
	return p
}

func reportMS(b *testing.B, total time.Duration, n int) {
	b.ReportMetric(float64(total.Microseconds())/1000/float64(n), "ms/op")
}

// BenchmarkSpawnGrid100k times Document.SpawnGrid of 100,000 cubes (target ≤ 200 ms); each
// iteration undoes it untimed. "grouped" puts the cubes under a group entity.
func BenchmarkSpawnGrid100k(b *testing.B) {
	for _, group := range []string{"", "Grid"} {
		b.Run(map[string]string{"": "roots", "Grid": "grouped"}[group], func(b *testing.B) {
			d := New("", Options{})
			p := grid100k(group)
			var total time.Duration
			n := 0
			for b.Loop() {
				t0 := time.Now()
				if _, _, err := d.SpawnGrid(context.Background(), p, nil); err != nil {
					b.Fatal(err)
				}
				total += time.Since(t0)
				n++
				b.StopTimer()
				if err := d.History().Undo(); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			reportMS(b, total, n)
			b.ReportMetric(0, "ns/op")
		})
	}
}

// BenchmarkFinishGrid100k times the half of a 100,000-cube spawn that runs on the editor's loop thread
// (Document.FinishGrid: ids, the batch spawn, the undo step); the plan (GridJob.Run) runs untimed, as the
// editor runs it on a background goroutine.
func BenchmarkFinishGrid100k(b *testing.B) {
	d := New("", Options{})
	p := grid100k("")
	var total time.Duration
	n := 0
	for b.Loop() {
		b.StopTimer()
		j, err := d.PrepareGrid(p)
		if err != nil {
			b.Fatal(err)
		}
		if err := j.Run(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		t0 := time.Now()
		if _, _, err := d.FinishGrid(j); err != nil {
			b.Fatal(err)
		}
		total += time.Since(t0)
		n++
		b.StopTimer()
		if err := d.History().Undo(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	reportMS(b, total, n)
	b.ReportMetric(0, "ns/op")
}

// BenchmarkUndoSpawnGrid100k times undoing a 100,000-cube SpawnGrid (target ≤ 200 ms); each
// iteration redoes it untimed.
func BenchmarkUndoSpawnGrid100k(b *testing.B) {
	for _, group := range []string{"", "Grid"} {
		b.Run(map[string]string{"": "roots", "Grid": "grouped"}[group], func(b *testing.B) {
			d := New("", Options{})
			if _, _, err := d.SpawnGrid(context.Background(), grid100k(group), nil); err != nil {
				b.Fatal(err)
			}
			var total time.Duration
			n := 0
			for b.Loop() {
				t0 := time.Now()
				if err := d.History().Undo(); err != nil {
					b.Fatal(err)
				}
				total += time.Since(t0)
				n++
				b.StopTimer()
				if err := d.History().Redo(); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			reportMS(b, total, n)
			b.ReportMetric(0, "ns/op")
		})
	}
}

// BenchmarkDeleteUndo100k times deleting all 100,000 cubes of a grouped grid (entities kept as
// snapshots for undo) and undoing it.
func BenchmarkDeleteUndo100k(b *testing.B) {
	d := New("", Options{})
	g, _, err := d.SpawnGrid(context.Background(), grid100k("Grid"), nil)
	if err != nil {
		b.Fatal(err)
	}
	gid := d.ID(g)
	var del, undo time.Duration
	n := 0
	for b.Loop() {
		g, _ := d.Entity(gid)
		t0 := time.Now()
		if err := d.Delete(g); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if err := d.History().Undo(); err != nil {
			b.Fatal(err)
		}
		del += t1.Sub(t0)
		undo += time.Since(t1)
		n++
	}
	b.ReportMetric(float64(del.Microseconds())/1000/float64(n), "delete-ms/op")
	b.ReportMetric(float64(undo.Microseconds())/1000/float64(n), "undo-ms/op")
}

// BenchmarkPlay100k times Play (cloning a 100,000-cube world) and one Tick of the Spin system.
func BenchmarkPlay100k(b *testing.B) {
	d := New("", Options{})
	if _, _, err := d.SpawnGrid(context.Background(), grid100k(""), nil); err != nil {
		b.Fatal(err)
	}
	var play, tick time.Duration
	n := 0
	for b.Loop() {
		t0 := time.Now()
		d.PlayMode().Start()
		t1 := time.Now()
		d.PlayMode().Tick(FixedStep)
		tick += time.Since(t1)
		play += t1.Sub(t0)
		n++
		d.PlayMode().Stop()
	}
	b.ReportMetric(float64(play.Microseconds())/1000/float64(n), "play-ms/op")
	b.ReportMetric(float64(tick.Microseconds())/1000/float64(n), "tick-ms/op")
}

// BenchmarkSetField100k times one SetField on 100,000 selected entities (a multi-selection drag
// step) inside a transaction, and its EndEdit.
func BenchmarkSetField100k(b *testing.B) {
	d := New("", Options{})
	_, cubes, err := d.SpawnGrid(context.Background(), grid100k(""), nil)
	if err != nil {
		b.Fatal(err)
	}
	tr, _ := ecs.ComponentIDOf[ecs.Transform](d.EditWorld())
	x := float32(0)
	b.Run("frame", func(b *testing.B) { // one drag frame: the transaction is already open
		d.BeginEdit("drag")
		for b.Loop() {
			x++
			if err := d.SetField(cubes, tr, "position[1]", x); err != nil {
				b.Fatal(err)
			}
		}
		d.EndEdit()
	})
	b.Run("whole", func(b *testing.B) { // BeginEdit, one SetField, EndEdit (records the step)
		for b.Loop() {
			x++
			d.BeginEdit("drag")
			if err := d.SetField(cubes, tr, "position[1]", x); err != nil {
				b.Fatal(err)
			}
			d.EndEdit()
		}
	})
}

// BenchmarkSave1M is a save of a 1,000,000-cube scene as the editor makes it: prepare is the loop thread's part
// (Document.PrepareSave and Finish), save the whole of it with the job's part (WriteJob.Run: encoding, the
// temporary file, its fsync and rename) between them.
func BenchmarkSave1M(b *testing.B) {
	d := New("", Options{})
	p := scene.DefaultGrid()
	p.Count = [3]int{100, 100, 100}
	if _, _, err := d.SpawnGrid(context.Background(), p, nil); err != nil {
		b.Fatal(err)
	}
	path := b.TempDir() + "/grid-1M.json"
	if err := d.SaveAs(context.Background(), path, nil); err != nil {
		b.Fatal(err)
	}
	b.Run("prepare", func(b *testing.B) {
		for b.Loop() {
			d.Finish(d.PrepareSave(""), nil)
		}
	})
	b.Run("save", func(b *testing.B) {
		report := reportCPU(b) // the collector's work for the copy shows here too
		for b.Loop() {
			j := d.PrepareSave("")
			d.Finish(j, j.Run(context.Background(), nil))
		}
		report()
	})
}
