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
	d.History().Clear()
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
// history keeps for the delete step (live heap with the step minus live heap after History.Clear),
// per entity. The editor's 1M session deletes, undoes and redoes a million entities this way.
func BenchmarkHistory(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(map[int]string{100_000: "100k", 1_000_000: "1M"}[n], func(b *testing.B) {
			d := cubeScene(b, n)
			var del, undo, redo time.Duration
			k := 0
			for b.Loop() {
				d.Selection().SelectAll()
				t0 := time.Now()
				if err := d.DeleteSelection(); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if err := d.History().Undo(); err != nil {
					b.Fatal(err)
				}
				t2 := time.Now()
				if err := d.History().Redo(); err != nil {
					b.Fatal(err)
				}
				t3 := time.Now()
				if err := d.History().Undo(); err != nil {
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
			d.History().Clear()
			before := heapInUse()
			d.Selection().SelectAll()
			if err := d.DeleteSelection(); err != nil {
				b.Fatal(err)
			}
			with := heapInUse()
			counted := d.History().Bytes()
			d.History().Clear()
			after := heapInUse()
			runtime.KeepAlive(d)
			b.ReportMetric(float64(int64(with)-int64(after))/float64(n), "history-B/entity")
			b.ReportMetric(float64(counted)/float64(n), "counted-B/entity")
			_ = before
			b.ReportMetric(0, "ns/op")
		})
	}
}

// BenchmarkSnapshot times taking the undo snapshot of n cubes (what a delete keeps) without
// changing the world, and reports the bytes and allocations it makes per entity.
func BenchmarkSnapshot(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			d := cubeScene(b, n)
			es := byIndex(d.allEntities())
			var keep any
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			for b.Loop() {
				keep = d.snapshotAll(es)
			}
			b.StopTimer()
			runtime.ReadMemStats(&m1)
			runtime.KeepAlive(keep)
			per := float64(b.N) * float64(n)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/per, "ns/entity")
			b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/per, "alloc-B/entity")
			b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/per, "allocs/entity")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// allEntities returns every entity of the document, parents first.
func (d *Document) allEntities() []ecs.Entity {
	d.Selection().SelectAll()
	es := preorder(d.world, d.topLevel(d.Selection().Entities()))
	d.Selection().Clear()
	return es
}

// snapshotAll takes what a delete of es (in preorder) keeps for undo.
func (d *Document) snapshotAll(es []ecs.Entity) any { return d.packOf(es) }

// TestHistoryBudget: over Options.MaxHistoryBytes the oldest steps are dropped (and reported once),
// never the step just done; the steps left undo and redo as before.
func TestHistoryBudget(t *testing.T) {
	d := cubeScene(t, 2000)
	d.opts.MaxHistoryBytes = 400_000 // about ten deletes of 250 cubes
	ids := d.IDs()
	var sizes []int
	for k := range 4 { // delete 4 × 250 cubes, one step each
		before := d.History().Bytes()
		must(t, d.Delete(d.entitiesOf(ids[k*250:(k+1)*250])...))
		sizes = append(sizes, d.History().Bytes()-before)
	}
	if sizes[0] < 250*100 || sizes[0] > 250*400 {
		t.Fatalf("a delete of 250 cubes counts %d bytes", sizes[0])
	}
	if n, _ := d.History().TakeDropped(); n != 0 || d.History().Undos() != 4 {
		t.Fatalf("within the budget: %d dropped, %d undos", n, d.History().Undos())
	}
	d.opts.MaxHistoryBytes = 2*sizes[0] + sizes[0]/2
	must(t, d.Delete(d.entitiesOf(ids[2000-10:])...)) // a small step: the two oldest go
	n, bytes := d.History().TakeDropped()
	if d.History().Undos() != 3 || n != 2 || bytes != sizes[0]+sizes[1] || d.History().Bytes() > d.opts.MaxHistoryBytes {
		t.Fatalf("over the budget: %d undos left, %d dropped (%d bytes), %d bytes held", d.History().Undos(), n, bytes, d.History().Bytes())
	}
	if n, _ := d.History().TakeDropped(); n != 0 {
		t.Fatal("drops reported twice")
	}
	// A step bigger than the budget stays, alone.
	d.opts.MaxHistoryBytes = 1000
	must(t, d.Delete(d.entitiesOf(ids[1000:1200])...))
	if d.History().Undos() != 1 || d.Len() != 790 {
		t.Fatalf("the newest step must stay: %d undos, %d entities", d.History().Undos(), d.Len())
	}
	must(t, d.History().Undo())
	if d.Len() != 990 || d.History().Undos() != 0 || d.History().Redos() != 1 {
		t.Fatalf("undo of the kept step: %d entities", d.Len())
	}
	// Redo steps are never dropped: a new step drops them as always, not the budget.
	must(t, d.History().Redo())
	if d.Len() != 790 {
		t.Fatal("redo")
	}
}

// TestDeleteSnapshotIsCompact: a delete of every cube moves their table's storage into the history (the heap
// grows by its ids and the selection's, under 64 bytes a cube, where a copy adds 150 more), a delete of every other cube keeps each in under 200
// bytes (a slice of boxed values per entity takes about 580), and the history counts what it keeps within 25 %.
func TestDeleteSnapshotIsCompact(t *testing.T) {
	const n = 20_000
	for _, half := range []bool{false, true} {
		d := cubeScene(t, n)
		gone := n
		if half {
			var es []ecs.Entity
			for i, e := range d.allEntities() {
				if i%2 == 0 {
					es = append(es, e)
				}
			}
			gone = len(es)
			d.Selection().Select(es...)
		} else {
			d.Selection().SelectAll()
		}
		before := heapInUse()
		must(t, d.DeleteSelection())
		with := heapInUse()
		counted := d.History().Bytes()
		d.History().Clear()
		kept := int(int64(with) - int64(heapInUse()))
		runtime.KeepAlive(d)
		if half && kept > 200*gone {
			t.Fatalf("the history keeps %d bytes per deleted cube", kept/gone)
		}
		if grew := int(int64(with) - int64(before)); !half && grew > 64*gone {
			t.Fatalf("a delete of all grew the heap by %d bytes per cube (the history keeps %d)", grew/gone, kept/gone)
		}
		if counted < kept*3/4 || counted > kept*5/4 {
			t.Fatalf("half %v: the history counts %d bytes, keeps %d", half, counted, kept)
		}
	}
}
