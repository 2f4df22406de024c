package systems_test

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"example.com/arena/components"
	"example.com/arena/systems"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

func world() *ecs.World {
	w := scene.NewWorld()
	components.Register(w)
	for _, mk := range systems.All {
		w.AddSystem(mk(w))
	}
	return w
}

func tick(w *ecs.World, dt float32) {
	ecs.SetResource(w, scene.Time{Delta: dt})
	w.Update()
}

func at(x, z float32) ecs.Transform {
	t := ecs.Transform{}.Default()
	t.Position = mgl32.Vec3{x, 0, z}
	return t
}

// Two units walk toward each other, stop at their reach and hit each other.
func TestChaseAndAttack(t *testing.T) {
	w := world()
	a := w.Spawn(at(0, 0), components.Health{Current: 50, Max: 50})
	b := w.Spawn(at(10, 0), components.Health{Current: 30, Max: 30})
	units := ecs.NewMap[components.Unit](w)
	units.Add(a, components.Unit{Team: components.TeamRed, Target: b, Speed: 2, Damage: 20, Reach: 1})
	units.Add(b, components.Unit{Team: components.TeamBlue, Target: a, Speed: 0, Damage: 4, Reach: 1})
	pos := ecs.NewMap[ecs.Transform](w)
	health := ecs.NewMap[components.Health](w)
	tick(w, 1)
	if p := pos.Get(a).Position; p != (mgl32.Vec3{2, 0, 0}) {
		t.Fatalf("after 1 s at 2 m/s: %v", p)
	}
	for range 10 {
		tick(w, 0.5)
	}
	if p := pos.Get(a).Position; p != (mgl32.Vec3{9, 0, 0}) {
		t.Fatalf("the chaser stops at its reach: %v", p)
	}
	if h := health.Get(b).Current; h != 0 {
		t.Fatalf("b took 20/s for long enough to fall: %v", h)
	}
	ha := health.Get(a).Current
	tick(w, 1)
	if health.Get(a).Current != ha {
		t.Fatal("a fallen unit (Health 0) still hits")
	}
}

// A unit without a target walks its patrol in a loop.
func TestPatrol(t *testing.T) {
	w := world()
	e := w.Spawn(at(0, 0), components.Health{Current: 1, Max: 1},
		components.Unit{Speed: 1}, components.Patrol{Points: []mgl32.Vec3{{1, 0, 0}, {1, 0, 1}}})
	pos := ecs.NewMap[ecs.Transform](w)
	patrol := ecs.NewMap[components.Patrol](w)
	tick(w, 1)
	if p := pos.Get(e).Position; p != (mgl32.Vec3{1, 0, 0}) || patrol.Get(e).Next != 1 {
		t.Fatalf("first point: %v, next %d", p, patrol.Get(e).Next)
	}
	tick(w, 1)
	tick(w, 1)
	if p := pos.Get(e).Position; p != (mgl32.Vec3{1, 0, 0}) || patrol.Get(e).Next != 1 {
		t.Fatalf("back at the first point: %v, next %d", p, patrol.Get(e).Next)
	}
}
