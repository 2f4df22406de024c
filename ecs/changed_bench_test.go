package ecs_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/ecs"
)

// BenchmarkChangedQuery: 1,000,000 entities with Pos; before each pass 1% of them (10,000) are
// written through Map.Mut, then a Changed[Pos] query and a plain full query over Pos run in the same
// iteration. Reported: the time of each ("changed-ns", "full-ns") and their ratio ("speedup", full
// over changed). "random" writes 10,000 entities drawn at random, "clustered" a contiguous block of
// 10,000 (a moved group, freshly spawned entities).
func BenchmarkChangedQuery(b *testing.B) {
	const n = 1_000_000
	const k = n / 100
	for _, mode := range []string{"random", "clustered"} {
		b.Run(mode, func(b *testing.B) {
			w := benchWorld()
			pm := ecs.NewMap[Pos](w)
			es := make([]ecs.Entity, 0, n)
			pm.SpawnBatch(n, func(e ecs.Entity, p *Pos) { p.X = 1; es = append(es, e) })
			changed := ecs.NewQuery1[Pos](w, ecs.Changed[Pos](), ecs.Read[Pos]())
			full := ecs.NewQuery1[Pos](w, ecs.Read[Pos]())
			drain := func(q *ecs.Query1[Pos]) (int, float64) {
				cnt, sum := 0, 0.0
				it := q.Iter()
				for it.Next() {
					sum += it.Get().X
					cnt++
				}
				return cnt, sum
			}
			drain(changed) // the first run sees every entity as changed
			rng := rand.New(rand.NewPCG(1, 2))
			var tChanged, tFull time.Duration
			for b.Loop() {
				b.StopTimer()
				w.Update()
				if mode == "random" {
					for range k {
						pm.Mut(es[rng.IntN(n)]).X++
					}
				} else {
					off := rng.IntN(n - k)
					for _, e := range es[off : off+k] {
						pm.Mut(e).X++
					}
				}
				b.StartTimer()
				t0 := time.Now()
				cnt, _ := drain(changed)
				t1 := time.Now()
				all, _ := drain(full)
				t2 := time.Now()
				tChanged += t1.Sub(t0)
				tFull += t2.Sub(t1)
				if cnt == 0 || cnt > k || all != n {
					b.Fatalf("changed %d, full %d", cnt, all)
				}
			}
			c := float64(tChanged.Nanoseconds()) / float64(b.N)
			f := float64(tFull.Nanoseconds()) / float64(b.N)
			b.ReportMetric(c, "changed-ns")
			b.ReportMetric(f, "full-ns")
			b.ReportMetric(f/c, "speedup")
			b.ReportMetric(c/k, "ns/changed-entity")
		})
	}
}

// ExampleChanged_pages shows the page summaries at work on a small scale.
func ExampleChanged_pages() {
	w := ecs.NewWorld()
	ecs.Register[Pos](w)
	pm := ecs.NewMap[Pos](w)
	var es []ecs.Entity
	pm.SpawnBatch(10_000, func(e ecs.Entity, _ *Pos) { es = append(es, e) })
	q := ecs.NewQuery1[Pos](w, ecs.Changed[Pos](), ecs.Read[Pos]())
	fmt.Println(q.Count())
	it := q.Iter()
	for it.Next() {
	}
	pm.Mut(es[42])
	pm.Mut(es[9000])
	fmt.Println(q.Count())
	// Output:
	// 10000
	// 2
}
