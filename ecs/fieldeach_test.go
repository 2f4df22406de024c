package ecs_test

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

type Labelled struct {
	Label string    `json:"label"`
	Pts   []float32 `json:"pts"`
}

// TestSetFieldEachIsSetField sets fields of entities in two tables (and of a sparse component, and
// of a string and a slice element) with SetFieldEach and entity by entity with SetField: the same
// worlds, every entity marked changed, the others not.
func TestSetFieldEachIsSetField(t *testing.T) {
	build := func() (*ecs.World, []ecs.Entity, ecs.Entity) {
		w := newTestWorld()
		ecs.Register[Labelled](w, ecs.WithStorage(ecs.SparseSet))
		var es []ecs.Entity
		for i := range 6 {
			tr := ecs.Transform{}.Default()
			tr.Position = mgl32.Vec3{float32(i), 2, 3}
			if i%2 == 0 {
				es = append(es, w.Spawn(tr, Labelled{Label: "a", Pts: []float32{1, 2}}))
			} else {
				es = append(es, w.Spawn(tr, Pos{1, 2}, Labelled{Pts: []float32{1, 2, 3}}))
			}
		}
		other := w.Spawn(ecs.Transform{}.Default())
		w.Update()
		return w, es, other
	}
	a, es, other := build()
	b, _, _ := build()
	trA, tgA := mustID[ecs.Transform](t, a), mustID[Labelled](t, a)
	sets := []struct {
		id   ecs.ComponentID
		path string
		v    any
	}{{trA, "position[0]", 7.25}, {trA, "scale", mgl32.Vec3{2, 2, 2}}, {tgA, "label", "b"}, {tgA, "pts[1]", 9}}
	for _, s := range sets {
		tick := a.Tick()
		if err := a.SetFieldEach(es, s.id, s.path, s.v); err != nil {
			t.Fatalf("SetFieldEach %s: %v", s.path, err)
		}
		for _, e := range es {
			if err := b.SetField(e, s.id, s.path, s.v); err != nil {
				t.Fatalf("SetField %s: %v", s.path, err)
			}
			if _, changed, _ := a.Ticks(e, s.id); changed < tick {
				t.Fatalf("%s of %v not marked changed", s.path, e)
			}
		}
		a.Update()
		b.Update()
	}
	for _, id := range []ecs.ComponentID{trA, tgA} {
		for _, e := range append(es, other) {
			va, _ := a.Get(e, id)
			vb, _ := b.Get(e, id)
			if !reflect.DeepEqual(va, vb) {
				t.Fatalf("%v: SetFieldEach gave %+v, SetField %+v", e, va, vb)
			}
		}
	}
	if _, changed, _ := a.Ticks(other, trA); changed != 0 && changed >= a.Tick()-1 {
		t.Fatalf("an entity not set was marked changed at %d", changed)
	}
	// Nothing changes when one entity lacks the component or the value does not fit.
	before, _ := a.CopyValues(trA, es)
	if err := a.SetFieldEach(append(es, a.Spawn(Pos{})), trA, "position[0]", 1); !errors.Is(err, ecs.ErrNoComponent) {
		t.Fatalf("an entity without the component: %v", err)
	}
	if err := a.SetFieldEach(es, trA, "position[0]", "x"); !errors.Is(err, ecs.ErrValueType) {
		t.Fatalf("a string for a float: %v", err)
	}
	for i, e := range es {
		if v, _ := a.Get(e, trA); v != before.At(i) {
			t.Fatalf("%v changed by a refused SetFieldEach", e)
		}
	}
}

// TestStoreValuesPutsBack copies components, changes them and stores the copies back: the values
// from before, marked changed, the copies still private.
func TestStoreValuesPutsBack(t *testing.T) {
	w := newTestWorld()
	ecs.Register[Labelled](w)
	tg := mustID[Labelled](t, w)
	var es []ecs.Entity
	for i := range 4 {
		es = append(es, w.Spawn(Labelled{Label: string(rune('a' + i)), Pts: []float32{float32(i)}}))
	}
	vals, err := w.CopyValues(tg, es)
	if err != nil {
		t.Fatal(err)
	}
	w.Update()
	tick := w.Tick()
	for _, e := range es {
		if err := w.Set(e, tg, Labelled{Label: "z"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.StoreValues(es, vals); err != nil {
		t.Fatal(err)
	}
	m := ecs.NewMap[Labelled](w)
	for i, e := range es {
		if got := m.Get(e); got.Label != string(rune('a'+i)) || len(got.Pts) != 1 || got.Pts[0] != float32(i) {
			t.Fatalf("%v: %+v after StoreValues", e, got)
		}
		if _, changed, _ := w.Ticks(e, tg); changed < tick {
			t.Fatalf("%v not marked changed", e)
		}
	}
	m.Mut(es[0]).Pts[0] = 42
	if vals.At(0).(Labelled).Pts[0] != 0 {
		t.Fatal("the stored values share memory with the world")
	}
	if err := w.StoreValues(es[:3], vals); err == nil {
		t.Fatal("3 entities for 4 values: no error")
	}
}

// TestCopyValuesAsOneByOne: CopyValues of entities in any order — a table's rows in order (copied in runs),
// reversed, shuffled, with gaps, across tables and from a sparse set — gives each entity's own value, a private
// copy.
func TestCopyValuesAsOneByOne(t *testing.T) {
	w := ecs.NewWorld()
	ecs.Register[Labelled](w)
	ecs.Register[Pos](w)
	ecs.Register[Vel](w, ecs.WithStorage(ecs.SparseSet))
	lid, pid, vid := mustID[Labelled](t, w), mustID[Pos](t, w), mustID[Vel](t, w)
	var all []ecs.Entity
	for i := range 600 {
		l, p := Labelled{Label: string(rune('a' + i%26)), Pts: []float32{float32(i)}}, Pos{float64(i), -float64(i)}
		switch i % 3 {
		case 0:
			all = append(all, w.Spawn(l, p))
		case 1:
			all = append(all, w.Spawn(l, p, Vel{float64(i), 1}))
		default:
			all = append(all, w.Spawn(p, l)) // the same table as case 0
		}
	}
	for i := 50; i < 80; i++ { // rows moved into the holes
		w.Despawn(all[i])
	}
	all = slices.Delete(all, 50, 80)
	rng := rand.New(rand.NewPCG(1, 2))
	check := func(name string, id ecs.ComponentID, es []ecs.Entity) {
		t.Helper()
		vals, err := w.CopyValues(id, es)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i, e := range es {
			if want, _ := w.Get(e, id); !reflect.DeepEqual(vals.At(i), want) {
				t.Fatalf("%s: value %d of %v is %+v, want %+v", name, i, e, vals.At(i), want)
			}
		}
	}
	var withVel []ecs.Entity
	for _, e := range all {
		if w.Has(e, vid) {
			withVel = append(withVel, e)
		}
	}
	for round := range 20 {
		es := slices.Clone(all)
		switch round % 4 {
		case 1:
			slices.Reverse(es)
		case 2:
			rng.Shuffle(len(es), func(i, j int) { es[i], es[j] = es[j], es[i] })
		case 3:
			es = slices.DeleteFunc(es, func(ecs.Entity) bool { return rng.IntN(3) == 0 })
		}
		check("Labelled", lid, es)
		check("Pos", pid, es)
	}
	check("Vel (sparse)", vid, withVel)
	// The copies are private: changing the world leaves them.
	vals, _ := w.CopyValues(lid, all)
	if err := w.Set(all[0], lid, Labelled{Label: "changed"}); err != nil {
		t.Fatal(err)
	}
	if got := vals.At(0).(Labelled).Label; got == "changed" {
		t.Fatal("the copy shares the world's value")
	}
}
