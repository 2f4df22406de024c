package ecs_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
)

// DespawnAll leaves the world as Despawn of each entity in turn does: the same entities alive with the same
// components and values, the same parents and children, and the freed slots reused in the same order — for whole
// tables, parts of them, parents with and without their children, sparse components, and dead and repeated handles.
func TestDespawnAllAsDespawnOneByOne(t *testing.T) {
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 9))
		build := func() (*ecs.World, []ecs.Entity) {
			r := rand.New(rand.NewPCG(seed, 7))
			w := newTestWorld()
			var es []ecs.Entity
			for i := range 200 + r.IntN(400) {
				var e ecs.Entity
				switch r.IntN(3) {
				case 0:
					e = w.Spawn(Pos{float64(i), 0}, Name{fmt.Sprint(i)})
				case 1:
					e = w.Spawn(Pos{float64(i), 1}, Vel{1, 2}, Health{i})
				default:
					e = w.Spawn(Name{fmt.Sprint("n", i)}, Selected{})
				}
				if len(es) > 0 && r.IntN(4) == 0 {
					if err := w.SetParent(e, es[r.IntN(len(es))]); err != nil {
						t.Fatal(err)
					}
				}
				es = append(es, e)
			}
			return w, es
		}
		a, es := build()
		b, _ := build()
		var kill []ecs.Entity
		frac := rng.IntN(4) // a quarter of the seeds: all of them
		for _, e := range es {
			if frac == 0 || rng.IntN(4) < frac {
				kill = append(kill, e)
			}
		}
		if len(kill) > 2 && seed%2 == 0 { // the other half: every handle live and given once
			kill = append(kill, kill[1])                           // repeated
			kill = append(kill, ecs.EntityAt(kill[0].Index(), 99)) // stale
		}
		rng.Shuffle(len(kill), func(i, j int) { kill[i], kill[j] = kill[j], kill[i] })
		for _, e := range kill {
			a.Despawn(e)
		}
		b.DespawnAll(kill)
		sameWorlds(t, fmt.Sprintf("seed %d: DespawnAll against Despawn", seed), a, b, es)
		for range kill {
			if ea, eb := a.Spawn(Pos{}), b.Spawn(Pos{}); ea != eb {
				t.Fatalf("seed %d: a spawn after Despawn got %v, after DespawnAll %v", seed, ea, eb)
			}
		}
	}
}
