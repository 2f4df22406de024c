package ecs_test

import (
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"
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

// BenchmarkPropagate1M: the world matrices after every Transform of a flat million changed (a field set on all of
// them, a scene read from a file, the undo of its delete); ns/entity is PropagateTransforms' alone.
func BenchmarkPropagate1M(b *testing.B) {
	w := ecs.NewWorld()
	const n = 1_000_000
	es := make([]ecs.Entity, n)
	for i := range es {
		es[i] = w.Spawn(&ecs.Transform{Position: mgl32.Vec3{float32(i % 1000), float32(i / 1000), 0}, Scale: mgl32.Vec3{1, 1, 1}})
	}
	ts := ecs.NewMap[ecs.Transform](w)
	var d time.Duration
	for b.Loop() {
		w.AdvanceTick()
		for _, e := range es {
			ts.Mut(e).Position[2]++
		}
		t0 := time.Now()
		w.PropagateTransforms()
		d += time.Since(t0)
	}
	b.ReportMetric(float64(d.Nanoseconds())/float64(b.N)/n, "ns/entity")
	b.ReportMetric(0, "ns/op")
}
