package radix

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// keyGens draw the keys of a trial: i is the place, n the length.
var keyGens = []struct {
	name string
	key  func(r *rand.Rand, i, n int) uint64
}{
	{"random", func(r *rand.Rand, _, _ int) uint64 { return r.Uint64() }},
	{"ids", func(r *rand.Rand, _, _ int) uint64 { return r.Uint64() >> 11 }},
	{"many ties", func(r *rand.Rand, _, _ int) uint64 { return uint64(r.IntN(8)) << 40 }},
	{"all equal", func(*rand.Rand, int, int) uint64 { return 1<<63 | 5 }},
	{"ascending", func(_ *rand.Rand, i, _ int) uint64 { return uint64(i) }},
	{"descending", func(_ *rand.Rand, i, n int) uint64 { return uint64(n - i) }},
	{"shared digits", func(r *rand.Rand, i, _ int) uint64 { return uint64(i%7)<<40 | uint64(r.IntN(3)) }},
	{"top and bottom bits", func(r *rand.Rand, _, _ int) uint64 { return uint64(r.IntN(2))<<63 | uint64(r.IntN(2)) }},
}

type pair struct {
	k uint64
	v int
}

// TestSortIsAStableSort: Sort orders keys as slices.SortStableFunc orders (key, value) pairs by key, values of equal
// keys in their input order, for keys with ties, digits all keys share, sorted and reversed input, at lengths from
// 0 to several passes' worth, with and without a buffer kept from sort to sort (of other lengths).
func TestSortIsAStableSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var buf Buffer[int]
	for trial := range 400 {
		g := keyGens[trial%len(keyGens)]
		n := r.IntN(3000)
		if trial%50 == 0 {
			n = r.IntN(3)
		}
		keys, vals := make([]uint64, n), make([]int, n)
		want := make([]pair, n)
		for i := range keys {
			keys[i], vals[i] = g.key(r, i, n), i
			want[i] = pair{keys[i], i}
		}
		slices.SortStableFunc(want, func(a, b pair) int { return cmp.Compare(a.k, b.k) })
		if trial%2 == 0 {
			Sort(keys, vals, &buf)
		} else {
			Sort(keys, vals, nil)
		}
		for i := range want {
			if keys[i] != want[i].k || vals[i] != want[i].v {
				t.Fatalf("trial %d (%s, %d keys): at %d got %d/%d, want %d/%d", trial, g.name, n, i, keys[i], vals[i], want[i].k, want[i].v)
			}
		}
	}
}

// TestSortFuncIsAStableSort: SortFunc orders as slices.SortStableFunc with the same key, equal keys in their input
// order, and calls key once an element.
func TestSortFuncIsAStableSort(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		g := keyGens[trial%len(keyGens)]
		n := r.IntN(3000)
		keyOf := make([]uint64, n)
		for i := range keyOf {
			keyOf[i] = g.key(r, i, n)
		}
		s := make([]int32, n)
		for i := range s {
			s[i] = int32(r.IntN(n)) // indices in any order, some repeated
		}
		want := slices.Clone(s)
		slices.SortStableFunc(want, func(a, b int32) int { return cmp.Compare(keyOf[a], keyOf[b]) })
		calls := 0
		SortFunc(s, func(i int32) uint64 { calls++; return keyOf[i] })
		if !slices.Equal(s, want) {
			t.Fatalf("trial %d (%s, %d elements): SortFunc differs from a stable sort", trial, g.name, n)
		}
		if calls != n {
			t.Fatalf("trial %d: key called %d times for %d elements", trial, calls, n)
		}
	}
}

// TestSortPanicsOnMismatch: keys and values of different lengths are a programmer's error.
func TestSortPanicsOnMismatch(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("Sort of 2 keys with 1 value did not panic")
		}
	}()
	Sort([]uint64{2, 1}, []int{1}, nil)
}

// TestSortReusesBuffer: a second sort no longer than the first allocates nothing.
func TestSortReusesBuffer(t *testing.T) {
	const n = 5000
	r := rand.New(rand.NewPCG(5, 6))
	keys, vals := make([]uint64, n), make([]int32, n)
	fill := func() {
		for i := range keys {
			keys[i], vals[i] = r.Uint64(), int32(i)
		}
	}
	var buf Buffer[int32]
	fill()
	Sort(keys, vals, &buf)
	if a := testing.AllocsPerRun(10, func() { fill(); Sort(keys, vals, &buf) }); a != 0 {
		t.Fatalf("%v allocations a sort with a kept buffer, want 0", a)
	}
}
