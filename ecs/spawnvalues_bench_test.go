package ecs_test

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

// Tag and Label are two more components for BenchmarkSpawnValues.
type Tag struct{ N int }
type Label struct{ S string }

// BenchmarkSpawnValues: 100,000 entities spawned one at a time from pointers to reused values of five components,
// as a scene load spawns them (World.Spawn with values of any type).
func BenchmarkSpawnValues(b *testing.B) {
	const n = 100_000
	tr := &ecs.Transform{Position: mgl32.Vec3{1, 2, 3}, Scale: mgl32.Vec3{1, 1, 1}}
	p, v, t, l := &Pos{1, 2}, &Vel{3, 4}, &Tag{5}, &Label{"cube"}
	for b.Loop() {
		b.StopTimer()
		w := benchWorld()
		ecs.Register[Tag](w)
		ecs.Register[Label](w)
		b.StartTimer()
		for range n {
			w.Spawn(tr, p, v, t, l)
		}
	}
	perEntity(b, n)
}
