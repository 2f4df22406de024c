package query

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
)

// world1M is a million entities as a big scene holds them: a Transform each, a Unit on half.
func world1M(b *testing.B) *ecs.World {
	w := newWorld()
	m := ecs.NewMap[ecs.Transform](w)
	u := ecs.NewMap[unit](w)
	for i := range 1_000_000 {
		e := m.Spawn(ecs.Transform{Position: mgl32.Vec3{float32(i % 1000), float32(i % 7), 0}, Scale: mgl32.Vec3{1, 1, 1}})
		if i%2 == 0 {
			u.Add(e, unit{Speed: float32(i % 10)})
		}
	}
	return w
}

// BenchmarkQuery1M is a field comparison over a million entities (ns/entity is reported).
func BenchmarkQuery1M(b *testing.B) {
	w := world1M(b)
	for _, src := range []string{"Transform.position.y>2", "Transform.position.y>2 Unit.speed<5 !Frozen"} {
		b.Run(src, func(b *testing.B) {
			q, err := Parse(w, src)
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			for b.Loop() {
				n = q.Eval(w).Len()
			}
			if n == 0 {
				b.Fatal("no match")
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ns/entity")
		})
	}
}
