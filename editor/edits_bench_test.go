package editor

import (
	"context"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/ecs/scene"
)

// BenchmarkEditFrames1M times delete, undo and redo of all the cubes of a root grid of 1,000,000 in the whole editor
// — the command and the two App.frame calls after it, as the GUI loop runs them, windowless with a fake renderer
// (the viewport's draw list is built; nothing is drawn) — for a CPU profile of an edit's frames beside the
// document's half (editor/doc BenchmarkEdits1M).
func BenchmarkEditFrames1M(b *testing.B) {
	f := newAppFixture(b, Options{})
	d := f.a.ws.Doc()
	p := scene.DefaultGrid()
	p.Count = [3]int{100, 100, 100}
	if _, _, err := d.SpawnGrid(context.Background(), p, nil); err != nil {
		b.Fatal(err)
	}
	n := d.Len()
	f.a.ws.CmdSelectAll()
	settle := func() {
		f.frames(2)
		for f.a.insp.pending {
			f.frame()
		}
	}
	settle()
	var del, undo, redo time.Duration
	step := func(total *time.Duration, cmd func()) {
		t0 := time.Now()
		cmd()
		f.frames(2)
		*total += time.Since(t0)
		b.StopTimer()
		settle()
		b.StartTimer()
	}
	for b.Loop() {
		step(&del, f.a.ws.CmdDelete)
		step(&undo, f.a.ws.CmdUndo)
		step(&redo, f.a.ws.CmdRedo)
		b.StopTimer()
		f.a.ws.CmdUndo()
		settle()
		if d.Len() != n {
			b.Fatalf("%d entities after delete, undo, redo, undo; want %d", d.Len(), n)
		}
		b.StartTimer()
	}
	for _, m := range []struct {
		name string
		d    time.Duration
	}{{"delete", del}, {"undo", undo}, {"redo", redo}} {
		b.ReportMetric(float64(m.d.Microseconds())/1000/float64(b.N), m.name+"-ms/op")
	}
	b.ReportMetric(0, "ns/op")
}
