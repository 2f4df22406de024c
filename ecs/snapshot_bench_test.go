package ecs_test

import (
	"testing"

	"github.com/voltex-editor/voltex/ecs"
)

// BenchmarkReadOfOneColumn1M: what a reader of one column of a million entities costs the world's goroutine
// before the reader starts — a read copy of that column (ReadCopyOf) or a snapshot (Snapshot, released when done)
// — and, for the snapshot, the copy of that column when the owner writes it while the snapshot is held.
func BenchmarkReadOfOneColumn1M(b *testing.B) {
	w := newTestWorld()
	m := ecs.NewMap2[Pos, ecs.Transform](w)
	es := make([]ecs.Entity, 1_000_000)
	for i := range es {
		es[i] = m.Spawn(Pos{X: float64(i)}, ecs.Transform{}.Default())
	}
	pos := mustID[Pos](b, w)
	b.Run("ReadCopyOf", func(b *testing.B) {
		for b.Loop() {
			_ = w.ReadCopyOf(pos)
		}
	})
	b.Run("Snapshot", func(b *testing.B) {
		for b.Loop() {
			_, release := w.Snapshot(pos)
			release()
		}
	})
	p := ecs.NewMap[Pos](w)
	b.Run("Snapshot+write", func(b *testing.B) {
		for b.Loop() {
			_, release := w.Snapshot(pos)
			p.Mut(es[0]).X++
			release()
		}
	})
}
