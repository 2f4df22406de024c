package ecs_test

import (
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/internal/treeshape"
)

// BenchmarkHierarchyShapes builds (SetParents), propagates, reorders (SetChildren) and deletes
// (DespawnRecursive) a 100,000-entity tree of each shape, and reports ns/entity per shape and
// each shape's time relative to the flat scene measured in the same iterations. Target: every
// shape within 3× flat (a quadratic deep chain would be hundreds of times slower).
func BenchmarkHierarchyShapes(b *testing.B) {
	const n = 100_000
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	treeshape.Benchmark(b, n, func(shape string) []int { return treeshape.Parents(shape, n) }, func(ps []int, t *treeshape.Timer) {
		t.Pause() // a fresh tree, untimed
		w := ecs.NewWorld()
		es := spawnTree(w, ps)
		links := linksOf(es, ps, order)
		t.Resume()
		if err := w.SetParents(links); err != nil {
			b.Fatal(err)
		}
		w.PropagateTransforms()
		for _, e := range es {
			if w.ChildCount(e) > 1 {
				cs := w.Children(e)
				cs[0], cs[len(cs)-1] = cs[len(cs)-1], cs[0]
				if err := w.SetChildren(e, cs); err != nil {
					b.Fatal(err)
				}
			}
		}
		for i, e := range es {
			if ps[i] < 0 {
				w.DespawnRecursive(e)
			}
		}
		if w.Len() != 0 {
			b.Fatal("not all despawned")
		}
	})
}
