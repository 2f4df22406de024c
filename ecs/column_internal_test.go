package ecs

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestColumnChangeSummaries checks the page summaries (newest tick, mask, older bound, floor)
// against a brute-force scan of the rows after random marks, moves and bulk marks.
func TestColumnChangeSummaries(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	w := NewWorld()
	s := w.comps[w.transformID]
	for trial := range 200 {
		n := 1 + r.IntN(300)
		c := newColumn(s, n)
		tick := uint32(1)
		for i := range n {
			c.setTicks(uint32(i), tick, tick, n)
		}
		for range r.IntN(400) {
			switch r.IntN(8) {
			case 0:
				tick++
			case 1, 2, 3:
				c.markChanged(uint32(r.IntN(n)), tick)
			case 4:
				a := uint32(r.IntN(n))
				b := a + uint32(r.IntN(n-int(a)+1))
				c.markRange(a, b, n, tick)
			case 5:
				c.markRange(0, uint32(n), n, tick) // floor
			case 6:
				c.setTicks(uint32(r.IntN(n)), tick, uint32(r.IntN(int(tick)+1)), n)
			case 7:
				c.moveWithin(uint32(r.IntN(n)), uint32(r.IntN(n)))
			}
		}
		for last := range tick + 1 {
			var want []uint32
			for i := range uint32(n) {
				if c.changedAt(i) > last {
					want = append(want, i)
				}
			}
			var got []uint32
			if c.floor > last {
				for i := range uint32(n) {
					got = append(got, i)
				}
			} else {
				for from := uint32(0); ; {
					s, e, ok := c.nextChangedRun(from, uint32(n), last)
					if !ok {
						break
					}
					if s < from || e <= s {
						t.Fatalf("trial %d: bad run [%d,%d) from %d", trial, s, e, from)
					}
					for i := s; i < e; i++ {
						got = append(got, i)
					}
					from = e
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d last %d: got %v want %v", trial, last, got, want)
			}
		}
	}
}

// copyInChunks copies as copy does, whatever the length against the chunk (a chunk's worth of values, one
// more, one less, several chunks and a part), for values of several sizes; cloneInChunks keeps nil nil.
func TestCopyInChunks(t *testing.T) {
	check := func(name string, n int, copyOne func(n int) bool) {
		t.Helper()
		if !copyOne(n) {
			t.Fatalf("%s: %d values copied wrong", name, n)
		}
	}
	for _, n := range []int{0, 1, copyChunk - 1, copyChunk, copyChunk + 1, 3*copyChunk + 17} {
		check("bytes", n, func(n int) bool {
			src := make([]byte, n)
			for i := range src {
				src[i] = byte(i * 7)
			}
			dst := make([]byte, n+1)
			copyInChunks(dst, src)
			return slices.Equal(dst[:n], src) && dst[n] == 0
		})
		check("records", n/5, func(n int) bool {
			src := make([]record, n)
			for i := range src {
				src[i] = record{table: uint32(i), row: uint32(i * 3), gen: uint32(i + 1)}
			}
			return slices.Equal(cloneInChunks(src), src)
		})
	}
	if cloneInChunks[int](nil) != nil {
		t.Fatal("cloneInChunks(nil) is not nil")
	}
}
