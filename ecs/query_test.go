package ecs_test

import (
	"slices"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
)

func collect1[A any](q *ecs.Query1[A]) []ecs.Entity {
	var es []ecs.Entity
	it := q.Iter()
	for it.Next() {
		es = append(es, it.Entity())
	}
	slices.SortFunc(es, func(a, b ecs.Entity) int { return int(a.Index()) - int(b.Index()) })
	return es
}

func TestQueryFilters(t *testing.T) {
	w := newTestWorld()
	a := w.Spawn(Pos{}, Vel{})
	b := w.Spawn(Pos{}, Health{})
	c := w.Spawn(Pos{}, Vel{}, Selected{})
	d := w.Spawn(Pos{}, Hidden{})
	w.Spawn(Vel{})
	check := func(name string, q *ecs.Query1[Pos], want ...ecs.Entity) {
		t.Helper()
		got := collect1(q)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: got %v want %v", name, got, want)
		}
		eq(t, name+" count", q.Count(), len(want))
	}
	check("all", ecs.NewQuery1[Pos](w), a, b, c, d)
	check("with vel", ecs.NewQuery1[Pos](w, ecs.With[Vel]()), a, c)
	check("without vel", ecs.NewQuery1[Pos](w, ecs.Without[Vel]()), b, d)
	check("with selected", ecs.NewQuery1[Pos](w, ecs.With[Selected]()), c)
	check("without sparse", ecs.NewQuery1[Pos](w, ecs.Without[Selected](), ecs.Without[Hidden]()), a, b)
	check("with vel without selected", ecs.NewQuery1[Pos](w, ecs.With[Vel](), ecs.Without[Selected]()), a)

	// Optional
	q := ecs.NewQuery2[Pos, Vel](w, ecs.Optional[Vel]())
	n, withVel := 0, 0
	it := q.Iter()
	for it.Next() {
		_, v := it.Get()
		n++
		if v != nil {
			withVel++
		}
	}
	eq(t, "optional visits", n, 4)
	eq(t, "optional present", withVel, 2)
	// Optional sparse
	qs := ecs.NewQuery2[Pos, Selected](w, ecs.Optional[Selected]())
	n, sel := 0, 0
	its := qs.Iter()
	for its.Next() {
		_, s := its.Get()
		n++
		if s != nil {
			sel++
			eq(t, "selected entity", its.Entity(), c)
		}
	}
	eq(t, "optional sparse visits", n, 4)
	eq(t, "optional sparse present", sel, 1)
	// query over a sparse tag only
	check1 := collect1(ecs.NewQuery1[Selected](w))
	if !slices.Equal(check1, []ecs.Entity{c}) {
		t.Fatalf("sparse driven %v", check1)
	}
	expectPanic(t, "not one of the query's type parameters", func() { ecs.NewQuery1[Pos](w, ecs.Optional[Vel]()) })
	expectPanic(t, "twice", func() { ecs.NewQuery2[Pos, Pos](w) })
	expectPanic(t, "requires and excludes", func() { ecs.NewQuery1[Pos](w, ecs.Without[Pos]()) })
}

func TestQueryColumns(t *testing.T) {
	w := newTestWorld()
	m := ecs.NewMap2[Pos, Vel](w)
	for i := range 10 {
		m.Spawn(Pos{X: float64(i)}, Vel{X: 1})
	}
	w.Spawn(Pos{}, Vel{X: 1}, Health{})
	q := ecs.NewQuery2[Pos, Vel](w, ecs.Read[Vel]())
	it := q.Iter()
	tables, total := 0, 0
	for it.NextTable() {
		ps, vs := it.Columns()
		es := it.Entities()
		if len(ps) != len(vs) || len(ps) != len(es) {
			t.Fatal("column lengths")
		}
		for i := range ps {
			ps[i].X += vs[i].X
		}
		tables++
		total += len(ps)
	}
	eq(t, "tables", tables, 2)
	eq(t, "rows", total, 11)
	qf := ecs.NewQuery1[Pos](w, ecs.Changed[Pos]())
	expectPanic(t, "iterate with Next", func() {
		it := qf.Iter()
		it.NextTable()
	})
	w.Spawn() // the world was unlocked by the panic path
}

func TestStructuralChangeDuringIterationPanics(t *testing.T) {
	w := newTestWorld()
	e := w.Spawn(Pos{})
	q := ecs.NewQuery1[Pos](w)
	pid := mustID[Pos](t, w)
	vm := ecs.NewMap[Vel](w)
	ops := map[string]func(){
		"spawn":   func() { w.Spawn() },
		"despawn": func() { w.Despawn(e) },
		"add":     func() { _ = w.Add(e, mustID[Vel](t, w), nil) },
		"remove":  func() { _ = w.Remove(e, pid) },
		"map add": func() { vm.Add(e, Vel{}) },
	}
	for name, op := range ops {
		t.Run(name, func(t *testing.T) {
			it := q.Iter()
			for it.Next() {
				expectPanic(t, "command buffer", op)
			}
		})
	}
	// Set is not structural
	it := q.Iter()
	for it.Next() {
		if err := w.Set(e, pid, Pos{1, 1}); err != nil {
			t.Fatal(err)
		}
	}
	// break + Close unlocks
	it = q.Iter()
	for it.Next() {
		break
	}
	expectPanic(t, "call Close", func() { w.Spawn() })
	it.Close()
	w.Spawn()
	// the world command buffer is applied by Update
	it = q.Iter()
	for it.Next() {
		w.Commands().Spawn(Pos{7, 7})
		w.Commands().Despawn(it.Entity())
	}
	w.Update()
	eq(t, "after commands", q.Count(), 1)
}

func TestChangedAndAdded(t *testing.T) {
	w := newTestWorld()
	pm := ecs.NewMap[Pos](w)
	// read-only queries: a query writes (and marks) its components unless they are declared Read
	changed := ecs.NewQuery1[Pos](w, ecs.Changed[Pos](), ecs.Read[Pos]())
	added := ecs.NewQuery1[Pos](w, ecs.Added[Pos](), ecs.Read[Pos]())
	var es []ecs.Entity
	for i := range 100 {
		es = append(es, pm.Spawn(Pos{X: float64(i)}))
	}
	eq(t, "first run sees all changed", len(collect1(changed)), 100)
	eq(t, "first run sees all added", len(collect1(added)), 100)
	eq(t, "nothing new", len(collect1(changed)), 0)
	eq(t, "nothing new added", len(collect1(added)), 0)
	w.Update()
	pm.Mut(es[5]).X = 50
	pm.Set(es[70], Pos{})
	if err := w.SetField(es[33], mustID[Pos](t, w), "x", 1); err != nil {
		t.Fatal(err)
	}
	got := collect1(changed)
	if !slices.Equal(got, []ecs.Entity{es[5], es[33], es[70]}) {
		t.Fatalf("changed %v", got)
	}
	eq(t, "added unchanged", len(collect1(added)), 0)
	eq(t, "seen once", len(collect1(changed)), 0)
	// a writing query marks what it visits; a read-only one does not
	ro := ecs.NewQuery1[Pos](w, ecs.Read[Pos]())
	it := ro.Iter()
	for it.Next() {
		it.Get()
	}
	eq(t, "read-only marks nothing", len(collect1(changed)), 0)
	rw := ecs.NewQuery1[Pos](w, ecs.Without[Selected]())
	pm2 := ecs.NewMap[Selected](w)
	pm2.Add(es[0], Selected{})
	it2 := rw.Iter()
	for it2.Next() {
		it2.Get().X++
	}
	eq(t, "writing query marks all it visits", len(collect1(changed)), 99)
	// an early break marks only the rows visited
	it3 := rw.Iter()
	k := 0
	for it3.Next() {
		if k++; k == 10 {
			break
		}
	}
	it3.Close()
	eq(t, "early break marks visited rows", len(collect1(changed)), 10)
	// a query does not see its own writes (Bevy)
	self := ecs.NewQuery1[Pos](w, ecs.Changed[Pos]())
	collect1(self)
	pm.Mut(es[1])
	it4 := self.Iter()
	for it4.Next() {
		it4.Get().Y = 3
	}
	eq(t, "own writes unseen", len(collect1(self)), 0)
	// moving between tables keeps the ticks
	collect1(changed)
	ecs.NewMap[Vel](w).Add(es[2], Vel{})
	eq(t, "move is not a change", len(collect1(changed)), 0)
	eq(t, "Vel added", ecs.NewQuery1[Vel](w, ecs.Added[Vel]()).Count(), 1)
	// a query without Read marks what it visits, even if it only reads
	collect1(ecs.NewQuery1[Pos](w, ecs.With[Vel]()))
	eq(t, "default is write", len(collect1(changed)), 1)
	// ticks
	a, c, ok := w.Ticks(es[5], mustID[Pos](t, w))
	if !ok || a != 1 || c <= a {
		t.Fatalf("ticks %d %d %v", a, c, ok)
	}
	if w.LastChange(mustID[Pos](t, w)) < c {
		t.Fatal("LastChange")
	}
}

func TestChangedSparse(t *testing.T) {
	w := newTestWorld()
	ecs.Register[Tagged](w, ecs.WithStorage(ecs.SparseSet))
	sm := ecs.NewMap[Tagged](w)
	var es []ecs.Entity
	for i := range 20 {
		es = append(es, w.Spawn(Pos{}))
		if i%2 == 0 {
			sm.Add(es[i], Tagged{i})
		}
	}
	q := ecs.NewQuery2[Pos, Tagged](w, ecs.Changed[Tagged](), ecs.Read[Pos]())
	eq(t, "first run", q.Count(), 10)
	it := q.Iter()
	for it.Next() {
		_, tg := it.Get()
		tg.N++ // the query writes Tagged, but does not see its own writes
	}
	eq(t, "own writes", q.Count(), 0)
	sm.Mut(es[4])
	it = q.Iter()
	n := 0
	for it.Next() {
		eq(t, "changed sparse", it.Entity(), es[4])
		n++
	}
	eq(t, "one", n, 1)
	eq(t, "value", sm.Get(es[4]).N, 5)
	// Added on a table component, filtered by a sparse With
	qa := ecs.NewQuery1[Pos](w, ecs.Added[Pos](), ecs.With[Tagged]())
	eq(t, "added with sparse", qa.Count(), 10)
}

func TestChangedPages(t *testing.T) {
	w := newTestWorld()
	pm := ecs.NewMap[Pos](w)
	pm.SpawnBatch(10000, nil)
	q := ecs.NewQuery1[Pos](w, ecs.Changed[Pos](), ecs.Read[Pos]())
	eq(t, "first", len(collect1(q)), 10000)
	var es []ecs.Entity
	all := ecs.NewQuery1[Pos](w, ecs.Read[Pos]())
	it := all.Iter()
	for it.Next() {
		es = append(es, it.Entity())
	}
	want := []ecs.Entity{}
	for i := 0; i < len(es); i += 997 {
		pm.Mut(es[i])
		want = append(want, es[i])
	}
	slices.SortFunc(want, func(a, b ecs.Entity) int { return int(a.Index()) - int(b.Index()) })
	got := collect1(q)
	if !slices.Equal(got, want) {
		t.Fatalf("got %d want %d", len(got), len(want))
	}
}

func TestNestedIterationOfSameQueryPanics(t *testing.T) {
	w := newTestWorld()
	w.Spawn(Pos{})
	w.Spawn(Pos{})
	q := ecs.NewQuery1[Pos](w, ecs.Read[Pos]())
	other := ecs.NewQuery1[Pos](w, ecs.Read[Pos]())
	it := q.Iter()
	pairs := 0
	for it.Next() {
		expectPanic(t, "already being iterated", func() { q.Iter() })
		in := other.Iter() // a second query may nest
		for in.Next() {
			pairs++
		}
	}
	eq(t, "nested pairs", pairs, 4)
	it = q.Iter() // finished iterations can restart
	it.Close()
	it.Close() // twice is fine
	eq(t, "count", q.Count(), 2)
}

func TestOptionalManyRows(t *testing.T) {
	w := newTestWorld()
	var with, without []ecs.Entity
	for i := range 200 {
		if i%3 == 0 {
			with = append(with, w.Spawn(Pos{X: float64(i)}, Vel{X: float64(i)}))
		} else {
			without = append(without, w.Spawn(Pos{X: float64(i)}))
		}
	}
	q := ecs.NewQuery2[Pos, Vel](w, ecs.Optional[Vel](), ecs.Read[Pos]())
	seen := map[ecs.Entity]bool{}
	it := q.Iter()
	for it.Next() {
		p, v := it.Get()
		e := it.Entity()
		if seen[e] {
			t.Fatal("twice", e)
		}
		seen[e] = true
		if slices.Contains(with, e) {
			if v == nil || v.X != p.X {
				t.Fatalf("%v: vel %v pos %v", e, v, p)
			}
			v.Y = 1 // writes through an optional component are marked
		} else if v != nil {
			t.Fatalf("%v: absent Vel is %v", e, v)
		}
		if int(p.X)%3 == 0 != slices.Contains(with, e) {
			t.Fatalf("%v: wrong pos %v", e, p)
		}
	}
	eq(t, "visited", len(seen), 200)
	for _, e := range without {
		if !seen[e] {
			t.Fatalf("%v without Vel was not visited by a query with Optional[Vel]", e)
		}
	}
	velChanged := ecs.NewQuery1[Vel](w, ecs.Changed[Vel](), ecs.Read[Vel]())
	eq(t, "vel all changed (first run)", velChanged.Count(), len(with))
}

func TestCloneKeepsTransitionsSeparate(t *testing.T) {
	w := newTestWorld()
	vm := ecs.NewMap[Vel](w)
	e := w.Spawn(Pos{1, 1})
	vm.Add(e, Vel{}) // builds the Pos -> Pos+Vel edge
	vm.Remove(e)
	c := w.Clone()
	cm := ecs.NewMap[Vel](c)
	cm.Add(e, Vel{2, 2})
	if vm.Has(e) || !cm.Has(e) {
		t.Fatal("clone shares tables with the original")
	}
	eq(t, "clone pos", ecs.NewMap[Pos](c).Get(e), Pos{1, 1})
	eq(t, "original count", ecs.NewQuery1[Vel](w).Count(), 0)
}

func TestChangedWithOptionalRows(t *testing.T) {
	w := newTestWorld()
	pm := ecs.NewMap[Pos](w)
	var es []ecs.Entity
	for i := range 300 {
		if i%2 == 0 {
			es = append(es, w.Spawn(Pos{X: float64(i)}, Vel{}))
		} else {
			es = append(es, w.Spawn(Pos{X: float64(i)}))
		}
	}
	q := ecs.NewQuery2[Pos, Vel](w, ecs.Changed[Pos](), ecs.Optional[Vel](), ecs.Read[Pos]())
	eq(t, "first", len(collectQ2(q)), 300)
	want := map[ecs.Entity]bool{}
	for i, e := range es {
		// runs of consecutive changed rows in both tables, and scattered ones
		if i < 100 || i%37 == 0 {
			pm.Mut(e)
			want[e] = true
		}
	}
	got := collectQ2(q)
	if len(got) != len(want) {
		t.Fatalf("got %d want %d", len(got), len(want))
	}
	for e := range got {
		if !want[e] {
			t.Fatalf("unexpected %v", e)
		}
	}
}

func collectQ2[A, B any](q *ecs.Query2[A, B]) map[ecs.Entity]bool {
	got := map[ecs.Entity]bool{}
	it := q.Iter()
	for it.Next() {
		got[it.Entity()] = true
	}
	return got
}
