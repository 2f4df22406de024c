package ecs_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
)

// eachTableWorld has 10 entities with Pos+Vel, 3 with Pos+Vel+Health, 5 with Pos only, and an
// empty table with Pos+Vel+Name (its only entity was despawned).
func eachTableWorld() (*ecs.World, []ecs.Entity) {
	w := newTestWorld()
	m := ecs.NewMap2[Pos, Vel](w)
	var es []ecs.Entity
	for i := range 10 {
		es = append(es, m.Spawn(Pos{X: float64(i)}, Vel{X: 1, Y: 2}))
	}
	for i := range 3 {
		es = append(es, w.Spawn(Pos{X: float64(100 + i)}, Vel{X: 1, Y: 2}, Health{i}))
	}
	for range 5 {
		w.Spawn(Pos{})
	}
	w.Despawn(w.Spawn(Pos{}, Vel{}, Name{}))
	return w, es
}

// TestEachTable: EachTable calls fn once per matching non-empty table with the table's entities and
// columns, all of one length, which visit exactly the entities Next visits; writes stick.
func TestEachTable(t *testing.T) {
	w, es := eachTableWorld()
	q := ecs.NewQuery2[Pos, Vel](w, ecs.Read[Vel]())
	want := map[ecs.Entity]bool{}
	for it := q.Iter(); it.Next(); {
		want[it.Entity()] = true
	}
	got := map[ecs.Entity]bool{}
	calls := 0
	q.EachTable(func(ents []ecs.Entity, ps []Pos, vs []Vel) {
		calls++
		if len(ents) == 0 || len(ps) != len(ents) || len(vs) != len(ents) || cap(ents) != len(ents) {
			t.Fatalf("table of %d entities (cap %d): %d Pos, %d Vel", len(ents), cap(ents), len(ps), len(vs))
		}
		vs = vs[:len(ps)]
		for i := range ps {
			if got[ents[i]] {
				t.Fatalf("%v visited twice", ents[i])
			}
			got[ents[i]] = true
			ps[i].X += vs[i].X
			ps[i].Y += vs[i].Y
		}
	})
	eq(t, "calls (the empty table is skipped)", calls, 2)
	if !maps.Equal(got, want) || len(got) != len(es) {
		t.Fatalf("EachTable visited %v, Next visits %v", got, want)
	}
	pm := ecs.NewMap[Pos](w)
	for i, e := range es {
		wantX := float64(i) + 1
		if i >= 10 {
			wantX = float64(100+i-10) + 1
		}
		if p := pm.Get(e); p != (Pos{wantX, 2}) {
			t.Fatalf("entity %d: Pos = %v, want {%v 2}", i, p, wantX)
		}
	}
}

// visitTables is how a column pass visits a query's tables: with EachTable, or with Iter, NextTable
// and Columns. Both add 1 to the X of every Pos they see.
type visitTables func(q *ecs.Query2[Pos, Vel])

func viaEachTable(q *ecs.Query2[Pos, Vel]) {
	q.EachTable(func(_ []ecs.Entity, ps []Pos, _ []Vel) {
		for i := range ps {
			ps[i].X++
		}
	})
}

func viaColumns(q *ecs.Query2[Pos, Vel]) {
	for it := q.Iter(); it.NextTable(); {
		ps, _ := it.Columns()
		for i := range ps {
			ps[i].X++
		}
	}
}

// changeLog runs a sequence of column passes (writing Pos, reading Vel; and one reading both),
// world updates, typed writes and structural changes through visit, and records after each step
// what Changed[Pos] and Changed[Vel] observers see, the world tick and Pos's LastChange.
func changeLog(visit visitTables) []any {
	w, es := eachTableWorld()
	write := ecs.NewQuery2[Pos, Vel](w, ecs.Read[Vel]())
	readOnly := ecs.NewQuery2[Pos, Vel](w, ecs.Read[Pos](), ecs.Read[Vel]())
	posChanged := ecs.NewQuery1[Pos](w, ecs.Changed[Pos](), ecs.Read[Pos]())
	velChanged := ecs.NewQuery1[Vel](w, ecs.Changed[Vel](), ecs.Read[Vel]())
	pid, _ := ecs.ComponentIDOf[Pos](w)
	var log []any
	observe := func(step string) {
		var ps, vs []ecs.Entity
		for it := posChanged.Iter(); it.Next(); {
			ps = append(ps, it.Entity())
		}
		for it := velChanged.Iter(); it.Next(); {
			vs = append(vs, it.Entity())
		}
		slices.SortFunc(ps, func(a, b ecs.Entity) int { return int(a.Index()) - int(b.Index()) })
		log = append(log, step, len(ps), ps, len(vs), w.Tick(), w.LastChange(pid))
	}
	observe("start")
	w.Update()
	visit(write)
	observe("write")
	observe("again")
	visit(readOnly)
	observe("read only")
	w.Update()
	ecs.NewMap[Pos](w).Mut(es[3]).X = -1
	observe("one Mut")
	visit(write)
	visit(write)
	observe("two passes")
	if err := w.Remove(es[0], pid); err != nil {
		panic(err)
	}
	w.Spawn(Pos{}, Vel{}, Name{})
	w.Update()
	visit(write)
	observe("after structural changes")
	return log
}

// TestEachTableChangeTicks: EachTable marks what Columns marks, at the same ticks: a writing pass
// marks the written component of every entity it visits, seen once by a Changed observer; a Read
// component and a read-only pass mark nothing.
func TestEachTableChangeTicks(t *testing.T) {
	got, want := changeLog(viaEachTable), changeLog(viaColumns)
	if len(got) != len(want) {
		t.Fatalf("logs of %d and %d entries", len(got), len(want))
	}
	for i := 0; i < len(want); i += 6 {
		g, wt := got[i:i+6], want[i:i+6]
		for k := range wt {
			if s, ok := wt[k].([]ecs.Entity); ok {
				if !slices.Equal(g[k].([]ecs.Entity), s) {
					t.Fatalf("%v: EachTable %v, Columns %v", wt[0], g, wt)
				}
			} else if g[k] != wt[k] {
				t.Fatalf("%v: EachTable %v, Columns %v", wt[0], g, wt)
			}
		}
	}
	// and what the log says, for EachTable: what Changed[Pos] and Changed[Vel] see after each step
	// (after the structural changes: the 12 entities left and the new one, whose Vel is new too)
	for step, n := range map[string][2]int{"start": {18, 13}, "write": {13, 0}, "again": {0, 0},
		"read only": {0, 0}, "one Mut": {1, 0}, "two passes": {13, 0}, "after structural changes": {13, 1}} {
		i := slices.Index(got, any(step))
		eq(t, step+": Changed[Pos]", got[i+1].(int), n[0])
		eq(t, step+": Changed[Vel]", got[i+3].(int), n[1])
	}
}

// TestEachTablePanics: a panicking fn leaves the world unlocked, the query usable and the whole
// table it was given marked changed; structural changes, a nested iteration of the same query and
// queries with per-row conditions panic with a message saying what to do.
func TestEachTablePanics(t *testing.T) {
	w, es := eachTableWorld()
	q := ecs.NewQuery2[Pos, Vel](w, ecs.Read[Vel]())
	posChanged := ecs.NewQuery1[Pos](w, ecs.Changed[Pos](), ecs.Read[Pos]())
	posChanged.Count()
	for it := posChanged.Iter(); it.Next(); {
	}
	w.Update()
	calls := 0
	expectPanic(t, "boom", func() {
		q.EachTable(func(ents []ecs.Entity, ps []Pos, _ []Vel) {
			if calls++; calls == 2 {
				panic("boom") // before writing anything: the table still counts as visited
			}
		})
	})
	w.Despawn(w.Spawn()) // unlocked
	eq(t, "changed after the panic", posChanged.Count(), len(es))

	expectPanic(t, "command buffer", func() {
		q.EachTable(func(ents []ecs.Entity, _ []Pos, _ []Vel) { w.Despawn(ents[0]) })
	})
	expectPanic(t, "already being iterated", func() {
		q.EachTable(func([]ecs.Entity, []Pos, []Vel) { q.EachTable(func([]ecs.Entity, []Pos, []Vel) {}) })
	})
	expectPanic(t, "iterate with Next", func() {
		ecs.NewQuery1[Pos](w, ecs.Changed[Pos]()).EachTable(func([]ecs.Entity, []Pos) {})
	})
	expectPanic(t, "iterate with Next", func() {
		ecs.NewQuery2[Pos, Selected](w).EachTable(func([]ecs.Entity, []Pos, []Selected) {})
	})
	// the Commands buffer is the way
	q.EachTable(func(ents []ecs.Entity, _ []Pos, _ []Vel) {
		for _, e := range ents {
			w.Commands().Despawn(e)
		}
	})
	w.Update()
	eq(t, "entities left (Pos only)", w.Len(), 5)
	eq(t, "matches left", q.Count(), 0)
}

// TestEachTableTablesChange: tables that empty or whose entities move to a table the query excludes
// are not visited; a table made after the query (of a component registered later) is.
func TestEachTableTablesChange(t *testing.T) {
	w := newTestWorld()
	q := ecs.NewQuery2[Pos, Vel](w, ecs.Without[Health]())
	tables := func() (n int, ents []ecs.Entity) {
		q.EachTable(func(es []ecs.Entity, ps []Pos, vs []Vel) {
			n++
			ents = append(ents, es...)
		})
		return n, ents
	}
	a := w.Spawn(Pos{}, Vel{})
	b := w.Spawn(Pos{}, Vel{}, Name{})
	if n, ents := tables(); n != 2 || len(ents) != 2 {
		t.Fatalf("%d tables, %v", n, ents)
	}
	vid, _ := ecs.ComponentIDOf[Vel](w)
	if err := w.Remove(a, vid); err != nil {
		t.Fatal(err)
	}
	if n, ents := tables(); n != 1 || !slices.Equal(ents, []ecs.Entity{b}) {
		t.Fatalf("after a's table emptied: %d tables, %v", n, ents)
	}
	ecs.NewMap[Health](w).Add(b, Health{1})
	if n, _ := tables(); n != 0 {
		t.Fatalf("after b moved to an excluded table: %d tables", n)
	}
	ecs.Register[C0](w)
	c := w.Spawn(Pos{}, Vel{}, C0{})
	if n, ents := tables(); n != 1 || !slices.Equal(ents, []ecs.Entity{c}) {
		t.Fatalf("a new table: %d tables, %v", n, ents)
	}
}

// TestEachTableOptional: an absent Optional component's column is nil.
func TestEachTableOptional(t *testing.T) {
	w, _ := eachTableWorld()
	q := ecs.NewQuery2[Pos, Health](w, ecs.Optional[Health]())
	rows, nilHealth := 0, 0
	q.EachTable(func(ents []ecs.Entity, ps []Pos, hs []Health) {
		rows += len(ps)
		if hs == nil {
			nilHealth += len(ps)
		} else if len(hs) != len(ps) {
			t.Fatalf("%d Health for %d Pos", len(hs), len(ps))
		}
	})
	eq(t, "rows", rows, 18)
	eq(t, "rows without Health", nilHealth, 15)
}
