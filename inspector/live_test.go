package inspector

import (
	"slices"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
)

// TestLiveSelectionKeptWhileGenerationHolds: with Options.Generation the live selected entities are checked again
// only when the generation, the world, its entity count or the selection's length changed (a million selected
// entities were checked in every frame); without it, in every frame.
func TestLiveSelectionKeptWhileGenerationHolds(t *testing.T) {
	w := ecs.NewWorld()
	var sel []ecs.Entity
	for range 4 {
		sel = append(sel, w.Spawn(ecs.Transform{}))
	}
	gen := uint64(1)
	for _, withGen := range []bool{true, false} {
		opts := Options{}
		if withGen {
			opts.Generation = func() uint64 { return gen }
		}
		p := New(&fakeEditor{t: t, w: w}, opts).Inspect(w, sel)
		frame := func() []ecs.Entity { p.frame++; return p.live() }
		if got := frame(); !slices.Equal(got, sel) {
			t.Fatalf("live %v, want %v", got, sel)
		}
		// Another entity dies and one is born (the count stays): only a new generation tells.
		w.Despawn(sel[1])
		w.Spawn(ecs.Transform{})
		got := frame()
		if withGen && !slices.Equal(got, sel) {
			t.Fatalf("with the same generation the live selection was checked again: %v", got)
		}
		if !withGen && !slices.Equal(got, []ecs.Entity{sel[0], sel[2], sel[3]}) {
			t.Fatalf("without a generation: %v", got)
		}
		gen++
		if got := frame(); !slices.Equal(got, []ecs.Entity{sel[0], sel[2], sel[3]}) {
			t.Fatalf("after a new generation: live %v", got)
		}
		// An entity count that changed is seen without a new generation.
		w.Despawn(sel[2])
		if got := frame(); !slices.Equal(got, []ecs.Entity{sel[0], sel[3]}) {
			t.Fatalf("after a despawn: live %v", got)
		}
		sel = []ecs.Entity{sel[0], sel[3]}
		sel = append(sel, w.Spawn(ecs.Transform{}), w.Spawn(ecs.Transform{}))
		p.Inspect(w, sel)
	}
}
