//go:build unix

package ecs_test

import (
	"runtime"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

// bigValue is a component of 64 bytes, as a world matrix is.
type bigValue struct{ M mgl32.Mat4 }

// A snapshot of a big world allocates no zeros on the heap for the values it does not hold (they read as zero).
func TestSnapshotOfABigWorldAllocatesNoZeros(t *testing.T) {
	const n = 300_000
	w := ecs.NewWorld()
	bigID := ecs.Register[bigValue](w)
	posID := ecs.Register[Pos](w)
	es := make([]ecs.Entity, n)
	for i := range es {
		es[i] = w.Spawn(bigValue{M: mgl32.Ident4()}, Pos{X: float64(i)})
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	snap, release := w.Snapshot(posID)
	runtime.ReadMemStats(&after)
	defer release()
	if grew := after.TotalAlloc - before.TotalAlloc; grew > n*64/8 {
		t.Fatalf("the snapshot allocated %d bytes (zeros for %d values of 64 bytes: %d)", grew, n, n*64)
	}
	for _, e := range []ecs.Entity{es[0], es[n/2], es[n-1]} {
		if v, ok := snap.Get(e, bigID); !ok || v.(bigValue) != (bigValue{}) {
			t.Fatalf("a value the snapshot does not hold: %v %v, want zero", v, ok)
		}
		if v, _ := w.Get(e, bigID); v.(bigValue).M != mgl32.Ident4() {
			t.Fatal("the world's value changed")
		}
	}
}
