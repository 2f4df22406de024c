package doc

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// cubeScene returns a document holding a root grid of n cubes (as `voltex-editor grid` writes and
// the editor opens it: names, colours, meshes, transforms, no history).
func cubeScene(tb testing.TB, n int) *Document {
	tb.Helper()
	p := scene.DefaultGrid()
	switch n {
	case 100_000:
		p.Count = [3]int{100, 10, 100}
	case 1_000_000:
		p.Count = [3]int{100, 100, 100}
	default:
		p.Count = [3]int{n, 1, 1}
	}
	p.ColorFrom, p.ColorTo = [4]float32{1, 0, 0, 1}, [4]float32{0, 0, 1, 1}
	d := New("", Options{})
	if _, _, err := d.SpawnGrid(context.Background(), p, nil); err != nil {
		tb.Fatal(err)
	}
	d.ClearHistory()
	return d
}

// heapInUse returns the bytes of live heap objects after a full collection.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkHistory times deleting every cube of a root grid (select all, Delete: the step keeps
// what undo needs), undoing the delete and redoing it, per entity, and measures the bytes the
// history keeps for the delete step (live heap with the step minus live heap after ClearHistory),
// per entity. The editor's 1M session deletes, undoes and redoes a million entities this way.
func BenchmarkHistory(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(map[int]string{100_000: "100k", 1_000_000: "1M"}[n], func(b *testing.B) {
			d := cubeScene(b, n)
			var del, undo, redo time.Duration
			k := 0
			for b.Loop() {
				d.SelectAll()
				t0 := time.Now()
				if err := d.DeleteSelection(); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if err := d.Undo(); err != nil {
					b.Fatal(err)
				}
				t2 := time.Now()
				if err := d.Redo(); err != nil {
					b.Fatal(err)
				}
				t3 := time.Now()
				if err := d.Undo(); err != nil {
					b.Fatal(err)
				}
				del, undo, redo = del+t1.Sub(t0), undo+t2.Sub(t1), redo+t3.Sub(t2)
				k++
			}
			b.StopTimer()
			per := func(t time.Duration) float64 { return float64(t.Nanoseconds()) / float64(k) / float64(n) }
			b.ReportMetric(per(del), "delete-ns/entity")
			b.ReportMetric(per(undo), "undo-ns/entity")
			b.ReportMetric(per(redo), "redo-ns/entity")
			// The history's bytes for one delete of everything.
			d.ClearHistory()
			before := heapInUse()
			d.SelectAll()
			if err := d.DeleteSelection(); err != nil {
				b.Fatal(err)
			}
			with := heapInUse()
			d.ClearHistory()
			after := heapInUse()
			runtime.KeepAlive(d)
			b.ReportMetric(float64(int64(with)-int64(after))/float64(n), "history-B/entity")
			_ = before
			b.ReportMetric(0, "ns/op")
		})
	}
}

// BenchmarkSnapshot times taking the undo snapshot of n cubes and the bytes it allocates and keeps,
// per entity, without changing the world.
func BenchmarkSnapshot(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			d := cubeScene(b, n)
			es := d.allEntities()
			var keep any
			before := heapInUse()
			b.ReportAllocs()
			for b.Loop() {
				keep = d.snapshotAll(es)
			}
			b.StopTimer()
			kept := heapInUse()
			runtime.KeepAlive(keep)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
			b.ReportMetric(float64(int64(kept)-int64(before))/float64(n), "kept-B/entity")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// allEntities returns every entity of the document, parents first.
func (d *Document) allEntities() []ecs.Entity {
	d.SelectAll()
	es := preorder(d.world, d.topLevel(d.SelectedEntities()))
	d.ClearSelection()
	return es
}

// snapshotAll takes what a delete of es (in preorder) keeps for undo.
func (d *Document) snapshotAll(es []ecs.Entity) any {
	snaps := make([]entSnap, len(es))
	for i, e := range es {
		snaps[i] = d.snapshot(e)
	}
	return snaps
}
