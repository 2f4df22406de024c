package ecs_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

// detachWorld builds a world with one table of n entities {Pos, Tags, Transform} spawned in order (rows in spawn
// order), mixed with entities of other tables, some parented; it returns the world, every entity, and the table's.
func detachWorld(seed uint64, n int) (*ecs.World, []ecs.Entity, []ecs.Entity) {
	r := rand.New(rand.NewPCG(seed, 3))
	w := newTestWorld()
	ecs.Register[Tags](w)
	var all, table []ecs.Entity
	for i := range n + r.IntN(n) {
		var e ecs.Entity
		switch {
		case len(table) < n && r.IntN(2) == 0:
			tr := ecs.Transform{}.Default()
			tr.Position = mgl32.Vec3{float32(i), 2, 0}
			e = w.Spawn(Pos{float64(i), 1}, Tags{[]string{fmt.Sprint("t", i)}}, tr)
			table = append(table, e)
		case r.IntN(2) == 0:
			e = w.Spawn(Pos{float64(i), 0}, Vel{1, 2})
		default:
			e = w.Spawn(Name{fmt.Sprint(i)}, Selected{})
		}
		if len(all) > 0 && r.IntN(5) == 0 {
			if err := w.SetParent(e, all[r.IntN(len(all))]); err != nil {
				panic(err)
			}
		}
		all = append(all, e)
	}
	for len(table) < n {
		e := w.Spawn(Pos{-1, 1}, Tags{[]string{"late"}}, ecs.Transform{}.Default())
		table, all = append(table, e), append(all, e)
	}
	return w, all, table
}

// sameWorlds fails unless a and b hold the same entities with the same components, values, parents and children.
func sameWorlds(t *testing.T, what string, a, b *ecs.World, es []ecs.Entity) {
	t.Helper()
	if a.Len() != b.Len() {
		t.Fatalf("%s: %d entities, want %d", what, b.Len(), a.Len())
	}
	for _, e := range es {
		if a.Alive(e) != b.Alive(e) {
			t.Fatalf("%s: %v alive %v, want %v", what, e, b.Alive(e), a.Alive(e))
		}
		if !a.Alive(e) {
			continue
		}
		if pa, pb := a.Parent(e), b.Parent(e); pa != pb {
			t.Fatalf("%s: %v parent %v, want %v", what, e, pb, pa)
		}
		if ca, cb := a.Children(e), b.Children(e); !slices.Equal(ca, cb) {
			t.Fatalf("%s: %v children %v, want %v", what, e, cb, ca)
		}
		for _, id := range a.ComponentIDs() {
			if a.ComponentInfo(id).Computed {
				continue
			}
			va, oka := a.Get(e, id)
			vb, okb := b.Get(e, id)
			if oka != okb || fmt.Sprint(va) != fmt.Sprint(vb) {
				t.Fatalf("%s: %v component %d: %v %v, want %v %v", what, e, id, vb, okb, va, oka)
			}
		}
	}
}

// DespawnDetach then SpawnDetached leaves the world as CopyValues, DespawnAll and SpawnValues do: the same
// entities, slots, values, parents and children after each step, the restored entities added and changed at
// the current tick — whether the table is empty when they come back (its storage taken back) or not (copied).
func TestDespawnDetachAsDespawnAll(t *testing.T) {
	for seed := range uint64(30) {
		rng := rand.New(rand.NewPCG(seed, 11))
		a, all, table := detachWorld(seed, 80+rng.IntN(200))
		b, _, _ := detachWorld(seed, 80+rand.New(rand.NewPCG(seed, 11)).IntN(200))
		kill := slices.Clone(table)
		for _, e := range all {
			if !slices.Contains(table, e) && rng.IntN(3) == 0 {
				kill = append(kill, e)
			}
		}
		rng.Shuffle(len(kill), func(i, j int) { kill[i], kill[j] = kill[j], kill[i] })
		ids := []ecs.ComponentID{mustID[Pos](t, a), mustID[Tags](t, a), mustID[ecs.Transform](t, a)}
		var cols []ecs.Values
		for _, id := range ids {
			v, err := a.CopyValues(id, table)
			if err != nil {
				t.Fatal(err)
			}
			cols = append(cols, v)
		}
		a.DespawnAll(kill)
		dets, err := b.DespawnDetach(kill, [][]ecs.Entity{table})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		sameWorlds(t, fmt.Sprintf("seed %d after the despawn", seed), a, b, all)
		d := dets[0]
		eq(t, "detached rows", d.Len(), len(table))
		for k, id := range ids {
			v, ok := d.Values(id)
			if !ok {
				t.Fatalf("no values of %d", id)
			}
			for i := range table {
				if got, want := fmt.Sprint(v.At(i)), fmt.Sprint(cols[k].At(i)); got != want {
					t.Fatalf("seed %d: detached value %d of %d is %s, want %s", seed, i, id, got, want)
				}
			}
		}
		if seed%3 == 0 { // the table is not empty when they come back: copied
			ea := a.Spawn(Pos{7, 7}, Tags{}, ecs.Transform{}.Default())
			eb := b.Spawn(Pos{7, 7}, Tags{}, ecs.Transform{}.Default())
			eq(t, "spawn between", eb, ea)
			all = append(all, ea)
		}
		a.Update()
		b.Update()
		addedA := ecs.NewQuery1[Pos](a, ecs.Added[Pos](), ecs.Read[Pos]())
		addedB := ecs.NewQuery1[Pos](b, ecs.Added[Pos](), ecs.Read[Pos]())
		changedB := ecs.NewQuery1[Tags](b, ecs.Changed[Tags](), ecs.Read[Tags]())
		collect1(addedA)
		collect1(addedB)
		collect1(changedB)
		back := a.SpawnValues(cols, 0, len(table))
		got := b.SpawnDetached(d)
		if !slices.Equal(back, got) {
			t.Fatalf("seed %d: SpawnDetached gave %v, SpawnValues %v", seed, got, back)
		}
		all = append(all, back...)
		sameWorlds(t, fmt.Sprintf("seed %d after the spawn", seed), a, b, all)
		if ga, gb := collect1(addedA), collect1(addedB); !slices.Equal(ga, gb) || len(gb) != len(table) {
			t.Fatalf("seed %d: added %v, want %v", seed, gb, ga)
		}
		eq(t, "changed tags", len(collect1(changedB)), len(table))
		// The table's own order: row order is the detached order.
		var order []ecs.Entity
		for it := ecs.NewQuery1[Tags](b, ecs.Read[Tags]()).Iter(); it.Next(); {
			if slices.Contains(got, it.Entity()) {
				order = append(order, it.Entity())
			}
		}
		if !slices.Equal(order, got) {
			t.Fatalf("seed %d: the table holds %v, want %v", seed, order, got)
		}
		a.Update()
		b.Update()
		gt := ecs.NewMap[ecs.GlobalTransform](b)
		for i, e := range got {
			if p := gt.Get(e).Matrix.Col(3).Vec3(); b.Parent(e).IsZero() && p != cols[2].At(i).(ecs.Transform).Position {
				t.Fatalf("seed %d: world position of %v is %v", seed, e, p)
			}
		}
		// The values are the world's own: a change to one is not seen by another.
		ecs.NewMap[Tags](b).Mut(got[0]).List[0] = "changed"
		if ecs.NewMap[Tags](b).Get(got[1]).List[0] == "changed" {
			t.Fatal("two entities share a slice")
		}
		for range 5 {
			if ea, eb := a.Spawn(Pos{}), b.Spawn(Pos{}); ea != eb {
				t.Fatalf("seed %d: a later spawn got %v, want %v", seed, eb, ea)
			}
		}
	}
}

// SpawnDetached into the empty table takes the storage back: the room the table had is its room again, and no
// value is copied (a value changed through the detached Values before is what the entity has).
func TestSpawnDetachedTakesTheStorageBack(t *testing.T) {
	w, pm, es := posWorld(1000)
	posBytes := func() int { return w.Stats().Components[mustID[Pos](t, w)].Bytes }
	before := posBytes()
	dets, err := w.DespawnDetach(es, [][]ecs.Entity{es})
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "alive", w.Len(), 0)
	if after := posBytes(); after >= before {
		t.Fatalf("the world holds %d bytes after detaching, %d before", after, before)
	}
	v, _ := dets[0].Values(mustID[Pos](t, w))
	v.Value(500).Field(1).SetFloat(42)
	back := w.SpawnDetached(dets[0])
	eq(t, "value written in the detached memory", pm.Get(back[500]), Pos{500, 42})
	eq(t, "bytes back", posBytes(), before)
	expectPanic(t, "already spawned", func() { w.SpawnDetached(dets[0]) })
}

// DespawnDetach refuses, changing nothing, a list that is not a whole table in row order, has a sparse
// component, is not all despawned, or leaves most of its table's room empty.
func TestDespawnDetachRefuses(t *testing.T) {
	w, _, es := posWorld(100)
	tagged := []ecs.Entity{w.Spawn(Name{"a"}, Selected{}), w.Spawn(Name{"b"}, Selected{})}
	rev := slices.Clone(es)
	slices.Reverse(rev)
	cases := map[string]struct{ es, whole []ecs.Entity }{
		"part":          {es, es[1:]},
		"order":         {es, rev},
		"sparse":        {tagged, tagged},
		"not despawned": {es[:99], es},
		"empty":         {es, nil},
	}
	for name, c := range cases {
		_, err := w.DespawnDetach(c.es, [][]ecs.Entity{c.whole})
		if !errors.Is(err, ecs.ErrNotWholeTable) {
			t.Fatalf("%s: err %v", name, err)
		}
		eq(t, name+": alive", w.Len(), 102)
	}
	if _, err := w.DespawnDetach(es, [][]ecs.Entity{es, es}); !errors.Is(err, ecs.ErrNotWholeTable) {
		t.Fatalf("twice: err %v", err)
	}
	eq(t, "alive", w.Len(), 102)
	// The last few of a table grown for many more are not moved with all its room.
	w.DespawnAll(es[3:])
	if w.WholeTable(es[:3]) {
		t.Fatal("3 entities left in a table's room of 100 or more count as a whole table")
	}
	if _, err := w.DespawnDetach(es[:3], [][]ecs.Entity{es[:3]}); !errors.Is(err, ecs.ErrNotWholeTable) {
		t.Fatalf("a few in a big room: err %v", err)
	}
	eq(t, "alive", w.Len(), 5)
}

// posWorld returns a test world with n entities {Pos{i, 0}}, in one table in spawn order.
func posWorld(n int) (*ecs.World, *ecs.Map[Pos], []ecs.Entity) {
	w := newTestWorld()
	pm := ecs.NewMap[Pos](w)
	es := make([]ecs.Entity, n)
	for i := range es {
		es[i] = pm.Spawn(Pos{float64(i), 0})
	}
	return w, pm, es
}
