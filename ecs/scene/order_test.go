package scene

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
)

// stableSiblings is SortSiblings' model: a stable sort by Compare (ties, equal keys or no SceneID at all, keep
// their order in es).
func stableSiblings(w *ecs.World, es []ecs.Entity) []ecs.Entity {
	m := ecs.NewMap[SceneID](w)
	out := slices.Clone(es)
	slices.SortStableFunc(out, func(a, b ecs.Entity) int {
		ka, _ := m.TryGet(a)
		kb, _ := m.TryGet(b)
		return Compare(ka, kb)
	})
	return out
}

// TestSortSiblingsAgainstModel: SortSiblings orders like a stable sort by Compare, for inputs already in order,
// reversed, shuffled, with many equal keys, equal ids, fractional orders, distinct whole orders with gaps, NaN, -0,
// infinities and entities without a SceneID; short lists and the radix sort's long ones.
func TestSortSiblingsAgainstModel(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for round := range 300 {
		w := NewWorld()
		n := r.IntN(200)
		if round%10 == 0 { // the radix sort's lengths
			n = 2000 + r.IntN(8000)
		}
		keys := r.IntN(6) // how the keys are drawn
		perm, gap := r.Perm(n), 1+r.IntN(2)
		var es []ecs.Entity
		for i := range n {
			var id SceneID
			switch keys {
			case 0: // in order
				id = SceneID{ID: uint64(i + 1), Order: float64(i)}
			case 1: // few distinct orders: ties broken by id, some ids equal
				id = SceneID{ID: uint64(r.IntN(n/2 + 1)), Order: float64(r.IntN(3))}
			case 2: // reversed
				id = SceneID{ID: uint64(n - i), Order: float64(n - i)}
			case 3: // random fractional
				id = SceneID{ID: r.Uint64N(1 << 40), Order: r.Float64()*100 - 50}
			case 4: // distinct whole numbers with gaps, ids in another order (a grid loaded from a file sorted by id)
				id = SceneID{ID: r.Uint64N(1 << 40), Order: float64(perm[i]*gap - 7)}
			default: // the floats that compare apart from their bits: NaN, -0 and 0, infinities; whole ids
				specials := []float64{math.NaN(), math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), -1, 1, -math.MaxFloat64, math.SmallestNonzeroFloat64}
				id = SceneID{ID: r.Uint64(), Order: specials[r.IntN(len(specials))]}
			}
			var e ecs.Entity
			if r.IntN(20) == 0 && keys != 4 { // (for keys 4, two such would share the key 0)
				e = w.Spawn(&Name{Value: fmt.Sprint(i)}) // no SceneID: the zero key
			} else {
				e = w.Spawn(&id)
			}
			es = append(es, e)
		}
		if round%3 == 0 {
			r.Shuffle(len(es), func(i, j int) { es[i], es[j] = es[j], es[i] })
		}
		want := stableSiblings(w, es)
		got := slices.Clone(es)
		SortSiblings(w, got)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d (n %d, keys %d): SortSiblings differs from the stable sort", round, n, keys)
		}
		if rs := Roots(w); !slices.Equal(rs, stableSiblings(w, rs)) {
			t.Fatalf("round %d: Roots not in sibling order", round)
		}
	}
}

// BenchmarkRoots100k: the roots of a 100,000-entity flat scene in sibling order (the hierarchy panel's rebuild
// after an undo or a spawn asks for them): spawned in order, and with the world's order shuffled against the keys.
func BenchmarkRoots100k(b *testing.B) {
	for _, shuffled := range []bool{false, true} {
		b.Run(map[bool]string{false: "in-order", true: "shuffled"}[shuffled], func(b *testing.B) {
			w := NewWorld()
			const n = 100_000
			order := make([]int, n)
			for i := range order {
				order[i] = i
			}
			if shuffled {
				rand.New(rand.NewPCG(1, 2)).Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
			}
			for _, o := range order {
				w.Spawn(&SceneID{ID: uint64(o + 1), Order: float64(o)})
			}
			for b.Loop() {
				if len(Roots(w)) != n {
					b.Fatal("roots")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/entity")
		})
	}
}

// BenchmarkSortSiblings1M: a million roots put in sibling order, listed in the world's order with their orders
// shuffled against it (a flat scene read from a file, whose entities come in id order, after the undo of its delete).
func BenchmarkSortSiblings1M(b *testing.B) {
	w := NewWorld()
	const n = 1_000_000
	order := rand.New(rand.NewPCG(1, 2)).Perm(n)
	es := make([]ecs.Entity, n)
	for i, o := range order {
		es[i] = w.Spawn(&SceneID{ID: uint64(i + 1), Order: float64(o)})
	}
	buf := make([]ecs.Entity, n)
	for b.Loop() {
		copy(buf, es)
		SortSiblings(w, buf)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/entity")
}
