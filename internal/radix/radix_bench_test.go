package radix

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkSort sorts scene ids (random 53-bit keys, five passes) with entity-sized values, with a kept buffer,
// at 100,000 and 1,000,000 keys, and the same keys already in order (one pass). ns/key is per key.
func BenchmarkSort(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		r := rand.New(rand.NewPCG(1, 2))
		base := make([]uint64, n)
		for i := range base {
			base[i] = r.Uint64() >> 11
		}
		keys, vals := make([]uint64, n), make([]uint64, n)
		var buf Buffer[uint64]
		b.Run(fmt.Sprintf("random/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				copy(keys, base)
				copy(vals, base)
				b.StartTimer()
				Sort(keys, vals, &buf)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/key")
		})
		b.Run(fmt.Sprintf("sorted/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				Sort(keys, vals, &buf)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/key")
		})
	}
}
