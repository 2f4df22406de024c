package viewport

import (
	"testing"
	"time"
)

// BenchmarkBuilderEdits1M times the builder's Update after the edits of a flat scene of 1,000,000 cubes: all of
// them despawned (a delete), spawned back from their columns (its undo) and 100,000 more spawned beside them.
// ns/entity is per entity the edit changed.
func BenchmarkBuilderEdits1M(b *testing.B) {
	w, cubes := flatGrid(100, 100, 100)
	n := len(cubes)
	bl := NewBuilder(w, BuiltinMeshes{})
	bl.Update()
	cols := copyAll(b, w, cubes)
	var del, undo time.Duration
	for b.Loop() {
		for _, e := range cubes {
			w.Despawn(e)
		}
		t0 := time.Now()
		bl.Update()
		del += time.Since(t0)
		if bl.DrawList().Len() != 0 {
			b.Fatalf("%d instances after deleting all", bl.DrawList().Len())
		}
		cubes = w.SpawnValues(cols, 0, n)
		t1 := time.Now()
		bl.Update()
		undo += time.Since(t1)
		if bl.DrawList().Len() != n {
			b.Fatalf("%d instances after restoring, want %d", bl.DrawList().Len(), n)
		}
	}
	b.ReportMetric(float64(del.Nanoseconds())/float64(b.N)/float64(n), "delete-ns/entity")
	b.ReportMetric(float64(undo.Nanoseconds())/float64(b.N)/float64(n), "restore-ns/entity")
	b.ReportMetric(float64(del.Microseconds())/1000/float64(b.N), "delete-ms/op")
	b.ReportMetric(float64(undo.Microseconds())/1000/float64(b.N), "restore-ms/op")
	b.ReportMetric(0, "ns/op")
}
