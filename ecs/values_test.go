package ecs_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

type Tags struct{ List []string }

// TestValuesRoundTrip copies components out of a world, despawns the entities and spawns them
// again from the copies: same values, the same slots, companions added, slices private.
func TestValuesRoundTrip(t *testing.T) {
	w := newTestWorld()
	ecs.Register[Tags](w)
	pid, tid, trid := mustID[Pos](t, w), mustID[Tags](t, w), mustID[ecs.Transform](t, w)
	var es []ecs.Entity
	for i := range 5 {
		tr := ecs.Transform{}.Default()
		tr.Position = mgl32.Vec3{float32(i), 0, 0}
		es = append(es, w.Spawn(Pos{float64(i), 1}, Tags{[]string{"a"}}, tr))
	}
	var cols []ecs.Values
	for _, id := range []ecs.ComponentID{pid, tid, trid} {
		v, err := w.CopyValues(id, es)
		if err != nil {
			t.Fatal(err)
		}
		cols = append(cols, v)
	}
	eq(t, "len", cols[0].Len(), 5)
	eq(t, "bytes", cols[0].Bytes(), 5*16)
	eq(t, "value 3", cols[0].At(3).(Pos), Pos{3, 1})
	cols[1].Value(0).Field(0).Index(0).SetString("changed in the copy")
	if got := ecs.NewMap[Tags](w).Get(es[0]).List[0]; got != "a" {
		t.Fatalf("the copy shares the world's slice: %q", got)
	}
	for _, e := range es {
		w.Despawn(e)
	}
	back := w.SpawnValues(cols, 0, 5)
	var order []ecs.Entity
	for it := ecs.NewQuery1[Pos](w, ecs.Read[Pos]()).Iter(); it.Next(); {
		order = append(order, it.Entity())
	}
	if !slices.Equal(order, back) {
		t.Fatalf("the table holds %v, want them in row order %v", order, back)
	}
	for i, e := range back {
		eq(t, "index", e.Index(), es[i].Index())
		eq(t, "pos", ecs.NewMap[Pos](w).Get(e), Pos{float64(i), 1})
		if !w.Has(e, mustID[ecs.GlobalTransform](t, w)) {
			t.Fatal("no GlobalTransform companion")
		}
	}
	eq(t, "tags of 0", ecs.NewMap[Tags](w).Get(back[0]).List[0], "changed in the copy")
	ecs.NewMap[Tags](w).Mut(back[0]).List[0] = "changed in the world"
	eq(t, "copy after a world change", cols[1].At(0).(Tags).List[0], "changed in the copy")
	if !cols[0].Set(1, &Pos{9, 9}) || cols[0].Set(1, Vel{}) {
		t.Fatal("Set: a *T is taken, another type refused")
	}
	eq(t, "set", cols[0].At(1).(Pos), Pos{9, 9})
	if _, err := w.CopyValues(pid, []ecs.Entity{es[0]}); !errors.Is(err, ecs.ErrDeadEntity) {
		t.Fatalf("a stale entity: %v", err)
	}
	bare := w.Spawn(Vel{})
	if _, err := w.CopyValues(pid, []ecs.Entity{bare}); !errors.Is(err, ecs.ErrNoComponent) {
		t.Fatalf("an entity without the component: %v", err)
	}
	expectPanic(t, "computed", func() {
		g, _ := w.CopyValues(mustID[ecs.GlobalTransform](t, w), back[:1])
		w.SpawnValues([]ecs.Values{g}, 0, 1)
	})
}
