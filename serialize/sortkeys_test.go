package serialize

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/radix"
)

// The load's sorts of records (radix.SortFunc by scene.OrderBits and idSortKey) give what a stable sort by
// cmp.Compare of the order or id gives (ties in the list's order), for order keys with many ties (0 and -0
// among them), negative and fractional ones, and ids (any int64), against slices.SortStableFunc as the model.
func TestSortKeysSortAsCompare(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 300 {
		n := r.IntN(3000)
		orders := make([]float64, n)
		ids := make([]int64, n)
		for i := range orders {
			switch trial % 3 {
			case 0:
				orders[i] = float64(r.IntN(21) - 10) // many ties
				if orders[i] == 0 && r.IntN(2) == 0 {
					orders[i] = math.Copysign(0, -1)
				}
			case 1:
				orders[i] = (r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(12)-4))
			default:
				orders[i] = float64(r.IntN(n + 1))
			}
			ids[i] = r.Int64() - r.Int64()
			if trial%2 == 0 {
				ids[i] = int64(r.IntN(50)) // ties
			}
		}
		list := make([]int32, n)
		for i := range list {
			list[i] = int32(r.IntN(n)) // indices in any order, some repeated
		}
		want := slices.Clone(list)
		slices.SortStableFunc(want, func(i, j int32) int { return cmp.Compare(orders[i], orders[j]) })
		got := slices.Clone(list)
		radix.SortFunc(got, func(i int32) uint64 { return scene.OrderBits(orders[i]) })
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (%d records): the sort by order differs from a stable sort", trial, n)
		}
		want = slices.Clone(list)
		slices.SortStableFunc(want, func(i, j int32) int { return cmp.Compare(ids[i], ids[j]) })
		got = slices.Clone(list)
		radix.SortFunc(got, func(i int32) uint64 { return idSortKey(ids[i]) })
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (%d records): the sort by id differs from a stable sort", trial, n)
		}
	}
}
