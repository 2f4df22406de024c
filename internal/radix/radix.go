package radix

// digitBits is the width of a digit: 2048 counts fit in L1 and a 64-bit key takes at most six passes; passes over
// a digit that every key shares are skipped.
const digitBits = 11

// Buffer holds the second pair of slices a sort moves keys and values into, kept to be reused by the next sort
// (a million keys and values are 16 MB or more of fresh memory otherwise). The zero Buffer is ready to use.
type Buffer[V any] struct {
	keys []uint64
	vals []V
}

// Sort sorts keys ascending and moves each vals[i] with keys[i]; values of equal keys keep their order in vals
// (a stable sort). A key is an unsigned integer that orders as the caller's real key does (a signed id with its
// sign bit flipped, a float's bits mapped as scene.OrderBits maps them). Keys already in order cost one pass; a
// sort otherwise makes one pass per 11-bit digit in which the keys differ. buf, if not nil, provides the second
// pair of slices and keeps them for the next sort; else they are allocated. Sort panics if keys and vals differ
// in length.
func Sort[V any](keys []uint64, vals []V, buf *Buffer[V]) {
	if len(keys) != len(vals) {
		panic("radix.Sort: keys and vals differ in length: pass one value for each key")
	}
	var or, and uint64 = 0, ^uint64(0)
	sorted := true
	for i, k := range keys {
		or, and = or|k, and&k
		if i > 0 && keys[i-1] > k {
			sorted = false
		}
	}
	if sorted {
		return
	}
	n := len(keys)
	var dst []uint64
	var dstV []V
	if buf != nil {
		buf.keys = grow(buf.keys, n)
		buf.vals = grow(buf.vals, n)
		dst, dstV = buf.keys, buf.vals
	} else {
		dst, dstV = make([]uint64, n), make([]V, n)
	}
	const buckets = 1 << digitBits
	src, srcV := keys, vals
	var count [buckets]int
	for shift := uint(0); shift < 64; shift += digitBits {
		if (or^and)>>shift&(buckets-1) == 0 {
			continue // every key has this digit: the order stays
		}
		clear(count[:])
		for _, k := range src {
			count[k>>shift&(buckets-1)]++
		}
		sum := 0
		for d, c := range count {
			count[d], sum = sum, sum+c
		}
		for i, k := range src {
			d := k >> shift & (buckets - 1)
			dst[count[d]], dstV[count[d]] = k, srcV[i]
			count[d]++
		}
		src, dst, srcV, dstV = dst, src, dstV, srcV
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
		copy(vals, srcV)
	}
}

// grow returns s with length n, reusing its memory when it has room.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// SortFunc sorts s by key, ascending, keeping the order of elements with equal keys (a stable sort). key is called
// once for each element (the keys are read into a slice of their own, 8 bytes an element, and sorted with s by
// [Sort]).
func SortFunc[T any](s []T, key func(T) uint64) {
	keys := make([]uint64, len(s))
	for i, x := range s {
		keys[i] = key(x)
	}
	Sort(keys, s, nil)
}
