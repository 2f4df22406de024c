package ecs_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

// joinWorld spawns n random entities into a world made as newTestWorld (with Tags): several tables, sparse-set
// tags on some, a few despawned (free slots), shared slices in Tags.
func joinWorld(seed uint64, n int) (*ecs.World, []ecs.Entity) {
	r := rand.New(rand.NewPCG(seed, 5))
	w := newTestWorld()
	ecs.Register[Tags](w)
	var es []ecs.Entity
	for i := range n {
		var e ecs.Entity
		switch r.IntN(4) {
		case 0:
			tr := ecs.Transform{}.Default()
			tr.Position = mgl32.Vec3{float32(i), 1, 2}
			e = w.Spawn(Pos{float64(i), 1}, tr)
		case 1:
			e = w.Spawn(Pos{float64(i), 2}, Vel{3, float64(i)})
		case 2:
			e = w.Spawn(Name{fmt.Sprint("n", i)}, Tags{[]string{fmt.Sprint(i), "x"}})
		default:
			e = w.Spawn()
		}
		if r.IntN(5) == 0 {
			must(w.Add(e, mustIDOf[Selected](w), Selected{}))
		}
		if r.IntN(7) == 0 {
			must(w.Add(e, mustIDOf[Hidden](w), Hidden{}))
		}
		es = append(es, e)
		if len(es) > 3 && r.IntN(9) == 0 {
			k := r.IntN(len(es))
			w.Despawn(es[k])
			es = append(es[:k], es[k+1:]...)
		}
	}
	return w, es
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func mustIDOf[T any](w *ecs.World) ecs.ComponentID {
	id, ok := ecs.ComponentIDOf[T](w)
	if !ok {
		panic("not registered")
	}
	return id
}

// components returns what e has in w, as text, computed components left out.
func components(w *ecs.World, e ecs.Entity) string {
	s := ""
	for _, id := range w.ComponentIDs() {
		if w.ComponentInfo(id).Computed {
			continue
		}
		if v, ok := w.Get(e, id); ok {
			s += fmt.Sprintf("%s=%v ", w.ComponentInfo(id).Name, v)
		}
	}
	return s
}

// Join moves every entity of the other world in with exactly its components and values, leaves w's own
// entities as they were, keeps each table's rows in their order after w's, and takes w's free slots.
func TestJoinMovesEveryEntity(t *testing.T) {
	for seed := range uint64(40) {
		w, mine := joinWorld(seed, 50+int(seed)*7)
		o, theirs := joinWorld(seed+1000, 30+int(seed)*5)
		before := map[ecs.Entity]string{}
		for _, e := range mine {
			before[e] = components(w, e)
		}
		want := make([]string, len(theirs))
		for i, e := range theirs {
			want[i] = components(o, e)
		}
		// The rows of {Pos, Vel} (one table) in o, in order: they follow w's own in w's table.
		rows := func(w *ecs.World) []float64 {
			var r []float64
			ecs.NewQuery2[Pos, Vel](w).Each(func(_ ecs.Entity, p *Pos, _ *Vel) { r = append(r, p.X) })
			return r
		}
		wantRows := append(rows(w), rows(o)...)
		free := w.IndexCap()
		moved, err := w.Join(o)
		if err != nil {
			t.Fatal(err)
		}
		if got := w.Len(); got != len(mine)+len(theirs) {
			t.Fatalf("seed %d: %d entities after the join, want %d", seed, got, len(mine)+len(theirs))
		}
		for e, s := range before {
			if got := components(w, e); got != s {
				t.Fatalf("seed %d: own %v is %q, was %q", seed, e, got, s)
			}
		}
		seen := map[ecs.Entity]bool{}
		for i, e := range theirs {
			ne := moved[e.Index()]
			if !w.Alive(ne) || seen[ne] || before[ne] != "" {
				t.Fatalf("seed %d: %v became %v (alive %v, twice %v)", seed, e, ne, w.Alive(ne), seen[ne])
			}
			seen[ne] = true
			if got := components(w, ne); got != want[i] {
				t.Fatalf("seed %d: %v became %v with %q, want %q", seed, e, ne, got, want[i])
			}
		}
		if got := rows(w); fmt.Sprint(got) != fmt.Sprint(wantRows) {
			t.Fatalf("seed %d: rows %v, want %v", seed, got, wantRows)
		}
		if w.IndexCap() < free {
			t.Fatalf("seed %d: index room shrank", seed)
		}
	}
}

// A world with parent links, or registered otherwise, is refused, and nothing changes.
func TestJoinRefuses(t *testing.T) {
	w, mine := joinWorld(1, 40)
	o, theirs := joinWorld(2, 40)
	if err := o.SetParent(theirs[1], theirs[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Join(o); !errors.Is(err, ecs.ErrCannotJoin) {
		t.Fatalf("a world with links: %v, want ErrCannotJoin", err)
	}
	other := ecs.NewWorld()
	ecs.Register[Vel](other)
	other.Spawn(Vel{1, 2})
	if _, err := w.Join(other); !errors.Is(err, ecs.ErrCannotJoin) {
		t.Fatalf("a world registered otherwise: %v, want ErrCannotJoin", err)
	}
	if _, err := w.Join(w); !errors.Is(err, ecs.ErrCannotJoin) {
		t.Fatalf("itself: %v, want ErrCannotJoin", err)
	}
	if w.Len() != len(mine) {
		t.Fatalf("%d entities after refused joins, want %d", w.Len(), len(mine))
	}
}
