package ecs

import (
	"runtime"
	"testing"
)

// liveHeap returns the bytes of live heap objects after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// growthRow is a component of 64 bytes, about what a scene entity's transforms take.
type growthRow struct{ M [16]float32 }

// TestBigTableGrowsByAQuarter: a spawn beside a big table grows it by a quarter, not to twice its rows (which
// held a million spare rows after a 100k spawn beside a million cubes). Measured with ReadMemStats: the bytes a
// table holds per entity after the second spawn stay within 1.3 times those after the first (exact) one; doubling
// made it 1.8.
func TestBigTableGrowsByAQuarter(t *testing.T) {
	const first, more = 80_000, 10_000
	w := NewWorld()
	Register[growthRow](w)
	m := NewMap[growthRow](w)
	h0 := liveHeap()
	m.SpawnBatch(first, nil)
	perRow := float64(liveHeap()-h0) / first
	m.SpawnBatch(more, nil)
	after := float64(liveHeap()-h0) / (first + more)
	t.Logf("%.0f bytes per entity after %d, %.0f after %d more", perRow, first, after, more)
	if after > 1.3*perRow {
		t.Errorf("%.0f bytes per entity after a %d spawn beside %d, want ≤ 1.3 × %.0f (the table grew too much)", after, more, first, perRow)
	}
	if got := w.Len(); got != first+more {
		t.Fatalf("%d entities, want %d", got, first+more)
	}
	runtime.KeepAlive(w)
}

func TestGrownCap(t *testing.T) {
	for _, c := range []struct{ cap, need, want int }{
		{0, 1, 8}, {8, 9, 16}, {1000, 5000, 5000}, {bigTable / 2, bigTable/2 + 1, bigTable},
		{bigTable, bigTable + 1, bigTable + bigTable/4}, {1_000_000, 1_100_000, 1_250_000}, {1_000_000, 3_000_000, 3_000_000},
	} {
		if got := grownCap(c.cap, c.need); got != c.want {
			t.Errorf("grownCap(%d, %d) = %d, want %d", c.cap, c.need, got, c.want)
		}
	}
}
