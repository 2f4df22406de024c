package serialize

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// sortRecs gives what a stable sort by the key gives (ties in the list's order), for keys with many
// ties and for keys that are all different, against slices.SortStableFunc as the model.
func TestSortRecsIsAStableSort(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		n := r.IntN(3000)
		keys := make([]float64, n)
		for i := range keys {
			if trial%2 == 0 {
				keys[i] = float64(r.IntN(20)) // many ties
			} else {
				keys[i] = r.Float64()
			}
		}
		list := make([]int32, n)
		for i := range list {
			list[i] = int32(r.IntN(n)) // indices in any order, some repeated
		}
		want := slices.Clone(list)
		slices.SortStableFunc(want, func(i, j int32) int { return cmp.Compare(keys[i], keys[j]) })
		got := sortRecs(slices.Clone(list), func(i int32) float64 { return keys[i] })
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (%d records): sortRecs differs from a stable sort", trial, n)
		}
	}
}
