package ecs_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

func TestCommands(t *testing.T) {
	w := newTestWorld()
	pid := mustID[Pos](t, w)
	a := w.Spawn(Pos{1, 1})
	b := w.Spawn(Pos{2, 2})
	cmds := ecs.NewCommands(w)
	var spawned ecs.Entity
	q := ecs.NewQuery1[Pos](w, ecs.Read[Pos]())
	it := q.Iter()
	for it.Next() {
		if it.Entity() == a {
			cmds.Despawn(a)
			cmds.Set(a, pid, Pos{}) // fails: a is gone by then
		} else {
			cmds.AddValue(b, Vel{3, 3})
			cmds.SetValue(b, Pos{4, 4})
			cmds.SpawnThen(func(e ecs.Entity) { spawned = e }, Pos{5, 5}, &Name{"n"})
			cmds.Remove(b, mustID[Health](t, w)) // fails: no Health
		}
	}
	eq(t, "recorded", cmds.Len(), 6)
	err := cmds.Apply()
	if !errors.Is(err, ecs.ErrDeadEntity) || !errors.Is(err, ecs.ErrNoComponent) {
		t.Fatalf("apply errors: %v", err)
	}
	eq(t, "emptied", cmds.Len(), 0)
	if w.Alive(a) || !w.Alive(spawned) {
		t.Fatal("despawn/spawn")
	}
	eq(t, "vel added", ecs.NewMap[Vel](w).Get(b), Vel{3, 3})
	eq(t, "pos set", ecs.NewMap[Pos](w).Get(b), Pos{4, 4})
	eq(t, "spawned name", ecs.NewMap[Name](w).Get(spawned).S, "n")
	expectPanic(t, "ecs.Register[", func() { cmds.Spawn(struct{ Z int }{}) })
	// Apply during iteration panics
	it = q.Iter()
	cmds.Run(func(*ecs.World) {})
	for it.Next() {
		expectPanic(t, "command buffer", func() { _ = cmds.Apply() })
	}
}

func TestResourcesAndEvents(t *testing.T) {
	type Gravity struct{ G float64 }
	type Hit struct{ N int }
	w := ecs.NewWorld()
	if ecs.Resource[Gravity](w) != nil || ecs.HasResource[Gravity](w) {
		t.Fatal("empty")
	}
	ecs.SetResource(w, Gravity{9.8})
	ecs.Resource[Gravity](w).G = 1.6
	eq(t, "resource", ecs.Resource[Gravity](w).G, 1.6)
	ecs.SetResource(w, Gravity{3})
	eq(t, "replaced", ecs.Resource[Gravity](w).G, 3)
	if !ecs.RemoveResource[Gravity](w) || ecs.RemoveResource[Gravity](w) {
		t.Fatal("remove")
	}
	r1 := ecs.NewEventReader[Hit](w)
	ecs.SendEvent(w, Hit{1})
	ecs.SendEvent(w, Hit{2})
	r2 := ecs.NewEventReader[Hit](w)
	eq(t, "r1 len", r1.Len(), 2)
	got := slices.Clone(r1.Read())
	if !slices.Equal(got, []Hit{{1}, {2}}) {
		t.Fatal(got)
	}
	eq(t, "read once", len(r1.Read()), 0)
	w.Update()
	ecs.SendEvent(w, Hit{3})
	if got := r2.Read(); !slices.Equal(got, []Hit{{1}, {2}, {3}}) {
		t.Fatalf("r2 %v", got)
	}
	if got := r1.Read(); !slices.Equal(got, []Hit{{3}}) {
		t.Fatalf("r1 %v", got)
	}
	w.Update()
	w.Update()
	r3 := ecs.NewEventReader[Hit](w)
	eq(t, "dropped after two updates", r3.Len(), 0)
	ecs.SendEvent(w, Hit{4})
	w.Update()
	w.Update()
	w.Update()
	eq(t, "missed events are dropped", len(r1.Read()), 0)
}

func TestHierarchy(t *testing.T) {
	w := newTestWorld()
	root := w.Spawn()
	a := w.Spawn()
	b := w.Spawn()
	c := w.Spawn()
	for _, x := range []ecs.Entity{a, b} {
		if err := w.SetParent(x, root); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.SetParent(c, a); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(w.Children(root), []ecs.Entity{a, b}) || w.Parent(c) != a {
		t.Fatal("links")
	}
	if err := w.SetParent(root, c); !errors.Is(err, ecs.ErrCycle) {
		t.Fatal("cycle", err)
	}
	if err := w.SetParent(a, a); !errors.Is(err, ecs.ErrCycle) {
		t.Fatal("self cycle", err)
	}
	// reparent keeps order stable
	if err := w.SetParent(a, b); err != nil {
		t.Fatal(err)
	}
	if err := w.SetParent(a, root); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(w.Children(root), []ecs.Entity{b, a}) {
		t.Fatalf("order %v", w.Children(root))
	}
	if err := w.SetParent(b, ecs.Entity{}); err != nil {
		t.Fatal(err)
	}
	if !w.Parent(b).IsZero() || !slices.Equal(w.Children(root), []ecs.Entity{a}) {
		t.Fatal("detach")
	}
	// despawn without children: they become roots
	w.Despawn(a)
	if !w.Parent(c).IsZero() || len(w.Children(root)) != 0 {
		t.Fatal("despawn parent")
	}
	if err := w.SetParent(c, root); err != nil {
		t.Fatal(err)
	}
	if err := w.SetParent(b, c); err != nil {
		t.Fatal(err)
	}
	eq(t, "recursive", w.DespawnRecursive(root), 3)
	if w.Alive(b) || w.Alive(c) || w.DespawnRecursive(root) != 0 {
		t.Fatal("recursive despawn")
	}
	if err := w.SetParent(b, ecs.Entity{}); !errors.Is(err, ecs.ErrDeadEntity) {
		t.Fatal(err)
	}
}

func approxMat(a, b mgl32.Mat4) bool {
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > 1e-4 {
			return false
		}
	}
	return true
}

func TestTransformMatrix(t *testing.T) {
	tr := ecs.Transform{}.Default()
	if !approxMat(tr.Matrix(), mgl32.Ident4()) {
		t.Fatal("identity")
	}
	tr = ecs.Transform{Position: mgl32.Vec3{10, 20, 30}, Scale: mgl32.Vec3{2, 3, 4}}
	p := tr.Matrix().Mul4x1(mgl32.Vec4{1, 1, 1, 1})
	if p != (mgl32.Vec4{12, 23, 34, 1}) {
		t.Fatalf("T·S %v", p)
	}
	tr = ecs.Transform{Rotation: mgl32.Vec3{0, 90, 0}, Scale: mgl32.Vec3{1, 1, 1}}
	p = tr.Matrix().Mul4x1(mgl32.Vec4{1, 0, 0, 1})
	if math.Abs(float64(p[0])) > 1e-6 || math.Abs(float64(p[2]+1)) > 1e-6 {
		t.Fatalf("Ry(90)·x = %v, want (0,0,-1)", p)
	}
	// order T·Ry·Rx·Rz·S
	tr = ecs.Transform{Position: mgl32.Vec3{1, 2, 3}, Rotation: mgl32.Vec3{30, 45, 60}, Scale: mgl32.Vec3{2, 2, 2}}
	want := mgl32.Translate3D(1, 2, 3).Mul4(mgl32.HomogRotate3DY(mgl32.DegToRad(45))).
		Mul4(mgl32.HomogRotate3DX(mgl32.DegToRad(30))).Mul4(mgl32.HomogRotate3DZ(mgl32.DegToRad(60))).
		Mul4(mgl32.Scale3D(2, 2, 2))
	if !approxMat(tr.Matrix(), want) {
		t.Fatal("order")
	}
}

func TestPropagation(t *testing.T) {
	w := newTestWorld()
	tm := ecs.NewMap[ecs.Transform](w)
	gm := ecs.NewMap[ecs.GlobalTransform](w)
	root := tm.Spawn(ecs.Transform{Position: mgl32.Vec3{10, 0, 0}, Scale: mgl32.Vec3{1, 1, 1}})
	child := tm.Spawn(ecs.Transform{Position: mgl32.Vec3{0, 5, 0}, Scale: mgl32.Vec3{1, 1, 1}})
	grand := w.Spawn(ecs.Transform{}.Default())
	other := tm.Spawn(ecs.Transform{Position: mgl32.Vec3{0, 0, 1}, Scale: mgl32.Vec3{1, 1, 1}})
	if err := w.SetParent(child, root); err != nil {
		t.Fatal(err)
	}
	if err := w.SetParent(grand, child); err != nil {
		t.Fatal(err)
	}
	if !gm.Has(grand) {
		t.Fatal("GlobalTransform added with Transform")
	}
	pos := func(e ecs.Entity) mgl32.Vec3 { return w.WorldMatrix(e).Col(3).Vec3() }
	eq(t, "grand", pos(grand), mgl32.Vec3{10, 5, 0})
	eq(t, "other", pos(other), mgl32.Vec3{0, 0, 1})
	if w.TransformsDirty() {
		t.Fatal("dirty after propagation")
	}
	// only the changed subtree is touched: other's GlobalTransform keeps its tick
	gid := mustID[ecs.GlobalTransform](t, w)
	_, otherTick, _ := w.Ticks(other, gid)
	w.Update()
	tm.Mut(root).Position = mgl32.Vec3{20, 0, 0}
	w.Update()
	eq(t, "grand moved", gm.Get(grand).Matrix.Col(3).Vec3(), mgl32.Vec3{20, 5, 0})
	_, otherTick2, _ := w.Ticks(other, gid)
	eq(t, "untouched subtree", otherTick2, otherTick)
	// reparenting moves the subtree
	if err := w.SetParent(child, other); err != nil {
		t.Fatal(err)
	}
	eq(t, "reparented", pos(grand), mgl32.Vec3{0, 5, 1})
	if err := w.SetParent(child, ecs.Entity{}); err != nil {
		t.Fatal(err)
	}
	eq(t, "root", pos(grand), mgl32.Vec3{0, 5, 0})
	// removing Transform removes GlobalTransform
	tm.Remove(other)
	if gm.Has(other) {
		t.Fatal("GlobalTransform kept")
	}
	eq(t, "no transform", w.WorldMatrix(other), mgl32.Ident4())
}

func TestCloneAndStats(t *testing.T) {
	type Bag struct{ Items []int }
	w := newTestWorld()
	ecs.Register[Bag](w)
	a := w.Spawn(Pos{1, 1}, Bag{[]int{1, 2}}, Selected{})
	b := w.Spawn(Pos{2, 2}, ecs.Transform{}.Default())
	w.Despawn(w.Spawn())
	if err := w.SetParent(b, a); err != nil {
		t.Fatal(err)
	}
	ecs.SetResource(w, Bag{[]int{7}})
	c := w.Clone()
	if !c.Alive(a) || !c.Alive(b) || c.Len() != w.Len() || c.Parent(b) != a {
		t.Fatal("handles")
	}
	bm := ecs.NewMap[Bag](c)
	bm.Mut(a).Items[0] = 99
	ecs.Resource[Bag](c).Items[0] = 98
	eq(t, "deep copy", ecs.NewMap[Bag](w).Get(a).Items[0], 1)
	eq(t, "resource deep copy", ecs.Resource[Bag](w).Items[0], 7)
	if !ecs.NewMap[Selected](c).Has(a) {
		t.Fatal("sparse cloned")
	}
	// the clone evolves independently and reuses the same free slot
	e1 := w.Spawn()
	e2 := c.Spawn()
	eq(t, "same recycled handle", e1, e2)
	c.Despawn(a)
	if !w.Alive(a) {
		t.Fatal("original touched")
	}
	st := w.Stats()
	eq(t, "entities", st.Entities, 3)
	var pos ecs.ComponentStats
	for _, cs := range st.Components {
		if cs.Name == "Pos" {
			pos = cs
		}
	}
	if pos.Count != 2 || pos.Bytes < 2*16 {
		t.Fatalf("pos stats %+v", pos)
	}
	if !strings.Contains(st.String(), "Pos") || st.Archetypes < 3 {
		t.Fatal(st.String())
	}
}

func TestDeepCopy(t *testing.T) {
	type Inner struct{ M map[string][]int }
	type V struct {
		S []Inner
		P *int
		N string
	}
	x := 5
	v := V{S: []Inner{{M: map[string][]int{"a": {1}}}}, P: &x, N: "n"}
	c := ecs.DeepCopy(reflect.ValueOf(v)).Interface().(V)
	c.S[0].M["a"][0] = 9
	*c.P = 6
	if v.S[0].M["a"][0] != 1 || x != 5 || c.N != "n" {
		t.Fatal("copy shares memory with the original")
	}
}

// ComponentInfo.SharesMemory: what needs a deep copy (slices, maps, pointers…), not strings.
func TestComponentInfoSharesMemory(t *testing.T) {
	type plain struct {
		A int
		B [3]float32
	}
	type str struct{ S string }
	type slice struct{ V []int }
	type mp struct{ M map[string]int }
	type ptr struct{ P *int }
	type arr struct{ A [2][]int }
	type emptyArr struct{ A [0][]int }
	type nested struct{ In struct{ X []byte } }
	type iface struct{ V any }
	w := ecs.NewWorld()
	for _, c := range []struct {
		id   ecs.ComponentID
		want bool
	}{
		{ecs.Register[plain](w), false}, {ecs.Register[str](w), false}, {ecs.Register[emptyArr](w), false},
		{ecs.Register[slice](w), true}, {ecs.Register[mp](w), true}, {ecs.Register[ptr](w), true},
		{ecs.Register[arr](w), true}, {ecs.Register[nested](w), true}, {ecs.Register[iface](w), true},
		{ecs.RegisterType(w, reflect.TypeFor[struct{ R []int }](), ecs.WithName("R")), true},
		{ecs.RegisterType(w, reflect.TypeFor[struct{ R, S string }](), ecs.WithName("RS")), false},
	} {
		if info := w.ComponentInfo(c.id); info.SharesMemory != c.want {
			t.Errorf("%v: SharesMemory = %v, want %v", info.Type, info.SharesMemory, c.want)
		}
	}
}

// Components registered at run time (RegisterType) are cloned deeply when they share memory and copied as bytes
// when they do not.
func TestCloneRuntimeTypes(t *testing.T) {
	shared := reflect.StructOf([]reflect.StructField{{Name: "Tags", Type: reflect.TypeFor[[]string](), Tag: `json:"tags"`}})
	plain := reflect.StructOf([]reflect.StructField{{Name: "X", Type: reflect.TypeFor[float64](), Tag: `json:"x"`}, {Name: "S", Type: reflect.TypeFor[string](), Tag: `json:"s"`}})
	w := ecs.NewWorld()
	sid := ecs.RegisterType(w, shared, ecs.WithName("Shared"))
	pid := ecs.RegisterType(w, plain, ecs.WithName("Plain"))
	if !w.ComponentInfo(sid).SharesMemory || w.ComponentInfo(pid).SharesMemory {
		t.Fatal("SharesMemory of the run-time types")
	}
	sv, pv := reflect.New(shared).Elem(), reflect.New(plain).Elem()
	sv.Field(0).Set(reflect.ValueOf([]string{"a", "b"}))
	pv.Field(0).SetFloat(2.5)
	pv.Field(1).SetString("hi")
	var es []ecs.Entity
	for range 3 {
		e := w.Spawn()
		if err := w.Add(e, sid, sv.Interface()); err != nil {
			t.Fatal(err)
		}
		if err := w.Add(e, pid, pv.Interface()); err != nil {
			t.Fatal(err)
		}
		es = append(es, e)
	}
	c := w.Clone()
	for _, e := range es {
		got, _ := c.Get(e, sid)
		reflect.ValueOf(got).Field(0).Index(0).SetString("changed") // the clone's slice
		if orig, _ := w.Get(e, sid); reflect.ValueOf(orig).Field(0).Index(0).String() != "a" {
			t.Fatal("the clone shares the slice of a run-time component")
		}
		if p, _ := c.Get(e, pid); !reflect.DeepEqual(p, pv.Interface()) {
			t.Fatalf("plain run-time component cloned as %v", p)
		}
	}
}

// TestBigCloneIsACopy: a world big enough that Clone copies its tables on several goroutines clones as a small
// one does: the same handles, values, parents and change ticks, and the copy is its own (run it with -race).
func TestBigCloneIsACopy(t *testing.T) {
	w := newTestWorld()
	const n = 80_000
	es := make([]ecs.Entity, n)
	for i := range es {
		if i%3 == 0 {
			es[i] = w.Spawn(Pos{float64(i), 1}, Vel{2, float64(i)})
		} else {
			es[i] = w.Spawn(Pos{float64(i), 2})
		}
	}
	for i := 1; i < n; i += 7 {
		if err := w.SetParent(es[i], es[i-1]); err != nil {
			t.Fatal(err)
		}
	}
	w.Despawn(es[5])
	w.Tick()
	ecs.NewMap[Pos](w).Mut(es[9]).X = -9 // changed after the tick: a Changed query of the clone sees it
	c := w.Clone()
	if c.Len() != w.Len() {
		t.Fatalf("clone has %d entities, want %d", c.Len(), w.Len())
	}
	wp, cp := ecs.NewMap[Pos](w), ecs.NewMap[Pos](c)
	wv, cv := ecs.NewMap[Vel](w), ecs.NewMap[Vel](c)
	for i, e := range es {
		if w.Alive(e) != c.Alive(e) {
			t.Fatalf("entity %d: alive %v in the world, %v in the clone", i, w.Alive(e), c.Alive(e))
		}
		if !w.Alive(e) {
			continue
		}
		if wp.Get(e) != cp.Get(e) || wv.Has(e) != cv.Has(e) || wv.Has(e) && wv.Get(e) != cv.Get(e) || w.Parent(e) != c.Parent(e) {
			t.Fatalf("entity %d differs in the clone", i)
		}
	}
	changed := func(w *ecs.World) int {
		q := ecs.NewQuery1[Pos](w, ecs.Changed[Pos]())
		k := 0
		for it := q.Iter(); it.Next(); {
			k++
		}
		return k
	}
	if a, b := changed(w), changed(c); a != b || a == 0 {
		t.Errorf("changed since the tick: %d in the world, %d in the clone", a, b)
	}
	cp.Mut(es[3]).X = 1e9
	c.Despawn(es[4])
	if wp.Get(es[3]).X == 1e9 || !w.Alive(es[4]) {
		t.Fatal("changing the clone changed the world")
	}
}

// pairsWorld is a world of n entities with a Pos and a Transform, every odd one the child of the one before.
func pairsWorld(t *testing.T, n int) (*ecs.World, []ecs.Entity) {
	t.Helper()
	w := newTestWorld()
	es := make([]ecs.Entity, n)
	for i := range es {
		es[i] = w.Spawn(Pos{float64(i), 1}, ecs.Transform{}.Default())
		if i%2 == 1 {
			if err := w.SetParent(es[i], es[i-1]); err != nil {
				t.Fatal(err)
			}
		}
	}
	return w, es
}

// TestReadCopy: a read copy has the world's entities, values and parents (a big one, copied on several goroutines,
// and a small one), but no change ticks (nothing Added or Changed) and zero computed components; changing the
// world afterwards leaves it as it was.
func TestReadCopy(t *testing.T) {
	for _, n := range []int{50, 80_000} {
		w, es := pairsWorld(t, n)
		ecs.NewMap[ecs.Transform](w).Mut(es[n-1]).Position[0] = 5
		w.PropagateTransforms()
		c := w.ReadCopy()
		wp, cp := ecs.NewMap[Pos](w), ecs.NewMap[Pos](c)
		wt, ct := ecs.NewMap[ecs.Transform](w), ecs.NewMap[ecs.Transform](c)
		cg := ecs.NewMap[ecs.GlobalTransform](c)
		for i, e := range es {
			if !c.Alive(e) || cp.Get(e) != wp.Get(e) || ct.Get(e) != wt.Get(e) || c.Parent(e) != w.Parent(e) {
				t.Fatalf("n=%d: entity %d differs in the read copy", n, i)
			}
			if cg.Get(e) != (ecs.GlobalTransform{}) {
				t.Fatalf("n=%d: entity %d has a world matrix in the read copy", n, i)
			}
		}
		for _, q := range []*ecs.Query1[Pos]{ecs.NewQuery1[Pos](c, ecs.Changed[Pos]()), ecs.NewQuery1[Pos](c, ecs.Added[Pos]())} {
			for it := q.Iter(); it.Next(); {
				t.Fatalf("n=%d: %v is added or changed in the read copy", n, it.Entity())
			}
		}
		wp.Mut(es[0]).X = -1
		w.Despawn(es[1])
		if cp.Get(es[0]).X != 0 || !c.Alive(es[1]) {
			t.Fatalf("n=%d: changing the world changed the read copy", n)
		}
	}
}

// TestReadCopyOf: a read copy of some components has their values, the entities and parents, and zero values of
// the components not listed.
func TestReadCopyOf(t *testing.T) {
	for _, n := range []int{50, 80_000} {
		w, es := pairsWorld(t, n)
		pos, _ := ecs.ComponentIDOf[Pos](w)
		c := w.ReadCopyOf(pos)
		wp, cp, ct := ecs.NewMap[Pos](w), ecs.NewMap[Pos](c), ecs.NewMap[ecs.Transform](c)
		for i, e := range es {
			if !c.Alive(e) || cp.Get(e) != wp.Get(e) || c.Parent(e) != w.Parent(e) || !ct.Has(e) {
				t.Fatalf("n=%d: entity %d differs in the read copy", n, i)
			}
			if ct.Get(e) != (ecs.Transform{}) {
				t.Fatalf("n=%d: entity %d has a Transform value in a copy of Pos only", n, i)
			}
		}
	}
}

// TestPropagationOfManyIsEachOwnMatrix: in a world of more transforms than one goroutine propagates (some with
// parents and children, in two tables), every world matrix is its parent's times its own after changes to all of
// them and to scattered few, and the Changed filter on GlobalTransform yields exactly the entities propagated.
func TestPropagationOfManyIsEachOwnMatrix(t *testing.T) {
	w := newTestWorld()
	tm := ecs.NewMap[ecs.Transform](w)
	gm := ecs.NewMap[ecs.GlobalTransform](w)
	r := rand.New(rand.NewPCG(5, 5))
	const n = 100_000
	es := make([]ecs.Entity, n)
	for i := range es {
		tr := ecs.Transform{Position: mgl32.Vec3{float32(i % 100), float32(i / 100), 0}, Scale: mgl32.Vec3{1, 1, 1}}
		if i%3 == 0 {
			es[i] = w.Spawn(tr, Pos{1, 2}) // a second table
		} else {
			es[i] = tm.Spawn(tr)
		}
	}
	for range 500 {
		c, p := es[r.IntN(n)], es[r.IntN(n)]
		if c != p && w.Parent(p) == (ecs.Entity{}) && w.Parent(c) == (ecs.Entity{}) && len(w.Children(c)) == 0 {
			if err := w.SetParent(c, p); err != nil {
				t.Fatal(err)
			}
		}
	}
	q := ecs.NewQuery1[ecs.GlobalTransform](w, ecs.Changed[ecs.GlobalTransform]())
	check := func(what string, moved map[ecs.Entity]bool) {
		t.Helper()
		w.AdvanceTick()
		for i, e := range es {
			if moved == nil || moved[e] {
				tm.Mut(e).Position[2] = float32(r.IntN(9)) + float32(i%7)
			}
		}
		w.PropagateTransforms()
		for _, e := range es {
			want := tm.Get(e).Matrix()
			if p := w.Parent(e); p != (ecs.Entity{}) {
				want = gm.Get(p).Matrix.Mul4(want)
			}
			if got := gm.Get(e).Matrix; !approxMat(got, want) {
				t.Fatalf("%s: entity %v: world matrix %v, want %v", what, e, got, want)
			}
		}
		seen := 0
		for it := q.Iter(); it.Next(); {
			seen++
			if e := it.Entity(); moved != nil && !moved[e] && !moved[w.Parent(e)] {
				t.Fatalf("%s: %v yielded as changed, neither it nor its parent moved", what, e)
			}
		}
		if moved == nil && seen != n {
			t.Fatalf("%s: %d yielded as changed, want %d", what, seen, n)
		}
	}
	check("all moved", nil)
	few := map[ecs.Entity]bool{}
	for range 1000 {
		few[es[r.IntN(n)]] = true
	}
	check("a few moved", few)
	check("all moved again", nil)
}
