// Package systems holds the arena's play-mode systems. The arena's editor runs them in play mode
// (program.Game.Systems) and the game runs them on the levels it loads, so what a designer sees
// when pressing Play is what the game does.
package systems

import (
	"github.com/go-gl/mathgl/mgl32"

	"example.com/arena/components"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// All makes the arena's systems in the order they run: units move, then hit; Spin keeps spinning
// decorations turning.
var All = []func(*ecs.World) ecs.System{Chase, Attack, scene.SpinSystem}

// Chase moves every standing unit (Health above 0) at its speed: to within reach of its target
// while the target stands, otherwise along its Patrol, if it has one. Units are roots of the
// hierarchy, so their Transform position is in world space.
func Chase(w *ecs.World) ecs.System {
	q := ecs.NewQuery4[ecs.Transform, components.Unit, components.Health, components.Patrol](w,
		ecs.Read[components.Unit](), ecs.Read[components.Health](), ecs.Optional[components.Patrol]())
	pos := ecs.NewMap[ecs.Transform](w)
	health := ecs.NewMap[components.Health](w)
	return ecs.System{
		Name:   "arena.Chase",
		Access: ecs.ReadsResource[scene.Time](q.Access()),
		Run: func(w *ecs.World, _ *ecs.Commands) {
			t := ecs.Resource[scene.Time](w)
			if t == nil || t.Delta == 0 {
				return
			}
			q.Each(func(_ ecs.Entity, tr *ecs.Transform, u *components.Unit, h *components.Health, p *components.Patrol) {
				if h.Current <= 0 {
					return
				}
				step := u.Speed * t.Delta
				if target, ok := pos.TryGet(u.Target); ok && standing(health, u.Target) {
					tr.Position = approach(tr.Position, target.Position, step, u.Reach)
					return
				}
				if p != nil && len(p.Points) > 0 {
					p.Next %= int32(len(p.Points))
					goal := p.Points[p.Next]
					tr.Position = approach(tr.Position, goal, step, 0)
					if tr.Position.Sub(goal).Len() < 1e-3 {
						p.Next = (p.Next + 1) % int32(len(p.Points))
					}
				}
			})
		},
	}
}

// Attack makes every standing unit within reach of its standing target take Damage hit points per
// second off the target's Health (never below 0).
func Attack(w *ecs.World) ecs.System {
	q := ecs.NewQuery3[ecs.Transform, components.Unit, components.Health](w,
		ecs.Read[ecs.Transform](), ecs.Read[components.Unit](), ecs.Read[components.Health]())
	pos := ecs.NewMap[ecs.Transform](w)
	health := ecs.NewMap[components.Health](w)
	access := ecs.ReadsResource[scene.Time](q.Access())
	access.Writes = append(access.Writes, health.ID())
	return ecs.System{
		Name:   "arena.Attack",
		After:  []string{"arena.Chase"},
		Access: access,
		Run: func(w *ecs.World, _ *ecs.Commands) {
			t := ecs.Resource[scene.Time](w)
			if t == nil || t.Delta == 0 {
				return
			}
			type hit struct {
				target ecs.Entity
				amount float32
			}
			var hits []hit // applied after the loop: the query reads Health
			q.Each(func(_ ecs.Entity, tr *ecs.Transform, u *components.Unit, h *components.Health) {
				target, ok := pos.TryGet(u.Target)
				if h.Current <= 0 || !ok || !standing(health, u.Target) {
					return
				}
				if tr.Position.Sub(target.Position).Len() <= u.Reach+1e-3 {
					hits = append(hits, hit{u.Target, u.Damage * t.Delta})
				}
			})
			for _, h := range hits {
				th := health.Mut(h.target)
				th.Current = max(0, th.Current-h.amount)
			}
		},
	}
}

// standing reports whether e has Health above 0.
func standing(health *ecs.Map[components.Health], e ecs.Entity) bool {
	h, ok := health.TryGet(e)
	return ok && h.Current > 0
}

// approach moves from toward to by at most step, stopping at distance stop from it.
func approach(from, to mgl32.Vec3, step, stop float32) mgl32.Vec3 {
	d := to.Sub(from)
	dist := d.Len()
	if dist <= stop || dist == 0 {
		return from
	}
	move := min(step, dist-stop)
	return from.Add(d.Mul(move / dist))
}
