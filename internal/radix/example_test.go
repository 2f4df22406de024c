package radix_test

import (
	"fmt"

	"github.com/voltex-editor/voltex/internal/radix"
)

// Signed ids sort as unsigned keys with their sign bit flipped; names of equal ids keep their order.
func ExampleSort() {
	ids := []int64{42, -7, 3, 42, 0}
	names := []string{"a", "b", "c", "d", "e"}
	keys := make([]uint64, len(ids))
	for i, id := range ids {
		keys[i] = uint64(id) ^ 1<<63
	}
	radix.Sort(keys, names, nil)
	fmt.Println(names)
	// Output: [b e c a d]
}

// SortFunc reads each element's key once.
func ExampleSortFunc() {
	type rec struct {
		name  string
		order uint64
	}
	recs := []rec{{"c", 3}, {"a", 1}, {"b2", 2}, {"b1", 2}}
	radix.SortFunc(recs, func(r rec) uint64 { return r.order })
	fmt.Println(recs)
	// Output: [{a 1} {b2 2} {b1 2} {c 3}]
}
