package ecs_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
)

// Pos and Vel are the two components of the peer scenarios (../shared/bench/ecs-peers).
type Pos struct{ X, Y float64 }
type Vel struct{ X, Y float64 }

// sizes are the entity counts N of every scenario.
var sizes = []int{1_000, 100_000, 1_000_000}

func perEntity(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
}

func benchWorld() *ecs.World {
	w := ecs.NewWorld()
	ecs.Register[Pos](w)
	ecs.Register[Vel](w)
	return w
}

// query2Setup makes the world of BenchmarkQuery2Comp: 10·N entities with Pos only plus N with Pos+Vel
// (Vel = {1,1}), and the query that adds Vel to Pos.
func query2Setup(n int) (*ecs.World, *ecs.Query2[Pos, Vel]) {
	w := benchWorld()
	ecs.NewMap[Pos](w).SpawnBatch(10*n, nil)
	ecs.NewMap2[Pos, Vel](w).SpawnBatch(n, func(_ ecs.Entity, _ *Pos, v *Vel) { *v = Vel{1, 1} })
	return w, ecs.NewQuery2[Pos, Vel](w, ecs.Read[Vel]())
}

// BenchmarkQuery2Comp: 10·N entities with Pos only plus N with Pos+Vel (Vel = {1,1}); one pass adds
// Vel to Pos on every entity that has both. The query writes Pos (marked changed) and reads Vel.
func BenchmarkQuery2Comp(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			_, q := query2Setup(n)
			for b.Loop() {
				it := q.Iter()
				for it.Next() {
					p, v := it.Get()
					p.X += v.X
					p.Y += v.Y
				}
			}
			perEntity(b, n)
		})
		// columns: a column system as it is meant to be written, with EachTable: its function literal
		// runs once per table, and its loop is exactly Ark's table-mode loop (ark-tables in
		// peers_test.go). The function's slices stay in registers; the same loop written in the b.Loop
		// body does not (columns-in-body in BenchmarkColumnLoop).
		b.Run(fmt.Sprintf("columns/N=%d", n), func(b *testing.B) {
			_, q := query2Setup(n)
			for b.Loop() {
				q.EachTable(func(_ []ecs.Entity, ps []Pos, vs []Vel) {
					for i := range ps {
						ps[i].X += vs[i].X
						ps[i].Y += vs[i].Y
					}
				})
			}
			perEntity(b, n)
		})
	}
}

// BenchmarkColumnLoop shows where the gap between a column loop and the peers' "slices" variant
// comes from: the machine code the compiler makes of the loop, not the storage. The compiler
// (Go 1.26) keeps every variable assigned inside a b.Loop body alive by taking its address
// (-gcflags=-m=2 reports "will be kept alive"), so the slice headers a column API returns there
// (Columns here, GetColumns in Ark) live in memory and every element access reloads and re-checks
// them; the "slices" variant makes its slices before b.Loop, so the one it only reads (vs) stays in
// registers. In an ordinary function (or a function literal, as EachTable takes) no keep-alive
// applies. The variants, all adding Vel to Pos over N rows:
//
//   - slices: plain slices made before b.Loop (as the peers' "slices");
//   - slices-in-body: the same slices, assigned inside the b.Loop body as a column API's are;
//   - columns-in-body: Query2Comp's query with Iter, NextTable and Columns in the b.Loop body (as
//     Ark's "ark-tables"; Query2Comp/columns until EachTable);
//   - slices-func, columns-func: the loop in an ordinary function, as a system is written: plain
//     slices, and Query2Comp's query with NextTable and Columns;
//   - eachtable-reslice: Query2Comp/columns (EachTable) with vs = vs[:len(ps)] before the loop, as
//     EachTable's documentation advises, which drops vs's bounds check.
func BenchmarkColumnLoop(b *testing.B) {
	newSlices := func(n int) ([]Pos, []Vel) {
		ps, vs := make([]Pos, n), make([]Vel, n)
		for i := range vs {
			vs[i] = Vel{1, 1}
		}
		return ps, vs
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("slices/N=%d", n), func(b *testing.B) {
			ps, vs := newSlices(n)
			for b.Loop() {
				for i := range ps {
					ps[i].X += vs[i].X
					ps[i].Y += vs[i].Y
				}
			}
			perEntity(b, n)
		})
		b.Run(fmt.Sprintf("slices-in-body/N=%d", n), func(b *testing.B) {
			ps0, vs0 := newSlices(n)
			for b.Loop() {
				ps, vs := ps0, vs0
				for i := range ps {
					ps[i].X += vs[i].X
					ps[i].Y += vs[i].Y
				}
			}
			perEntity(b, n)
		})
		b.Run(fmt.Sprintf("columns-in-body/N=%d", n), func(b *testing.B) {
			_, q := query2Setup(n)
			for b.Loop() {
				it := q.Iter()
				for it.NextTable() {
					ps, vs := it.Columns()
					for i := range ps {
						ps[i].X += vs[i].X
						ps[i].Y += vs[i].Y
					}
				}
			}
			perEntity(b, n)
		})
		b.Run(fmt.Sprintf("slices-func/N=%d", n), func(b *testing.B) {
			ps, vs := newSlices(n)
			for b.Loop() {
				addVelSlices(ps, vs)
			}
			perEntity(b, n)
		})
		b.Run(fmt.Sprintf("columns-func/N=%d", n), func(b *testing.B) {
			_, q := query2Setup(n)
			for b.Loop() {
				addVelColumns(q)
			}
			perEntity(b, n)
		})
		b.Run(fmt.Sprintf("eachtable-reslice/N=%d", n), func(b *testing.B) {
			_, q := query2Setup(n)
			for b.Loop() {
				q.EachTable(func(_ []ecs.Entity, ps []Pos, vs []Vel) {
					vs = vs[:len(ps)]
					for i := range ps {
						ps[i].X += vs[i].X
						ps[i].Y += vs[i].Y
					}
				})
			}
			perEntity(b, n)
		})
	}
}

// addVelSlices is the slices loop of BenchmarkColumnLoop in an ordinary function.
//
//go:noinline
func addVelSlices(ps []Pos, vs []Vel) {
	for i := range ps {
		ps[i].X += vs[i].X
		ps[i].Y += vs[i].Y
	}
}

// addVelColumns is Query2Comp's column loop with NextTable and Columns in an ordinary function.
//
//go:noinline
func addVelColumns(q *ecs.Query2[Pos, Vel]) {
	it := q.Iter()
	for it.NextTable() {
		ps, vs := it.Columns()
		for i := range ps {
			ps[i].X += vs[i].X
			ps[i].Y += vs[i].Y
		}
	}
}

// BenchmarkCreate2Comp: create N entities with Pos+Vel one by one, in a world that already held
// (and freed) N such entities; deletion is not timed.
func BenchmarkCreate2Comp(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			w := benchWorld()
			m := ecs.NewMap2[Pos, Vel](w)
			es := make([]ecs.Entity, 0, n)
			warm := func() {
				for range n {
					es = append(es, m.Spawn(Pos{}, Vel{1, 1}))
				}
			}
			free := func() {
				for _, e := range es {
					w.Despawn(e)
				}
				es = es[:0]
			}
			warm()
			free()
			for b.Loop() {
				warm()
				b.StopTimer()
				free()
				b.StartTimer()
			}
			perEntity(b, n)
		})
	}
}

// BenchmarkAddRemove: N entities with Pos; one pass adds Vel to each, then removes it from each.
func BenchmarkAddRemove(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			w := benchWorld()
			pm := ecs.NewMap[Pos](w)
			vm := ecs.NewMap[Vel](w)
			es := make([]ecs.Entity, 0, n)
			pm.SpawnBatch(n, func(e ecs.Entity, _ *Pos) { es = append(es, e) })
			for b.Loop() {
				for _, e := range es {
					vm.Add(e, Vel{1, 1})
				}
				for _, e := range es {
					vm.Remove(e)
				}
			}
			perEntity(b, n)
		})
	}
}

// BenchmarkDelete2Comp: delete N entities with Pos+Vel one by one; re-creation is not timed.
func BenchmarkDelete2Comp(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			w := benchWorld()
			m := ecs.NewMap2[Pos, Vel](w)
			es := make([]ecs.Entity, 0, n)
			for b.Loop() {
				b.StopTimer()
				es = es[:0]
				for range n {
					es = append(es, m.Spawn(Pos{}, Vel{1, 1}))
				}
				b.StartTimer()
				for _, e := range es {
					w.Despawn(e)
				}
			}
			perEntity(b, n)
		})
	}
}

// BenchmarkRandomGet: N entities with Pos, visited in a fixed shuffled order; one pass sums Pos.X.
func BenchmarkRandomGet(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			w := benchWorld()
			pm := ecs.NewMap[Pos](w)
			es := make([]ecs.Entity, 0, n)
			pm.SpawnBatch(n, func(e ecs.Entity, p *Pos) { p.X = 1; es = append(es, e) })
			rand.New(rand.NewPCG(1, 2)).Shuffle(n, func(i, j int) { es[i], es[j] = es[j], es[i] })
			var sum float64
			for b.Loop() {
				for _, e := range es {
					sum += pm.Get(e).X
				}
			}
			perEntity(b, n)
			if sum == 0 {
				b.Fatal("no work")
			}
		})
	}
}
