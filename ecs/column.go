package ecs

import (
	"github.com/voltex-editor/voltex/internal/prefault"
	"math/bits"
	"unsafe"
)

// pageShift sets the number of rows (64) covered by one entry of a column's change summaries.
const pageShift = 6

const pageRows = 1 << pageShift

// column stores one component's values for the rows of a table (or of a sparse set), with an added
// and a changed tick per row, and per page of 64 rows a summary of the changed ticks so that a
// Changed query skips untouched pages and, in touched ones, visits only the changed rows:
//
//   - pageChanged[p] is the newest changed tick of the page's rows,
//   - pageMask[p] has a bit for each row whose changed tick equals pageChanged[p],
//   - pageOlder[p] bounds the changed ticks of the other rows from above.
//
// A query that last ran at tick L skips page p if pageChanged[p] <= L, and if pageOlder[p] <= L
// the changed rows are exactly the bits of pageMask[p]; otherwise it checks the page's rows.
// pageAdded[p] bounds the added ticks of the page's rows from above.
//
// Bulk marks are lazy: a query that writes every row of a column sets floor instead of touching each
// row; a row's effective changed tick is max(changed[row], floor). The floor is folded into the rows
// ("materialized") before a row with an older tick is stored into the column.
type column struct {
	ptr         unsafe.Pointer // first value
	size        uintptr        // bytes per value
	ops         columnOps
	store       *componentStore
	added       []uint32 // per row
	changed     []uint32 // per row, raw (see floor)
	pageChanged []uint32
	pageOlder   []uint32
	pageMask    []uint64
	pageAdded   []uint32
	floor       uint32
	trivial     bool // values hold no pointers: vacated rows need no clearing
}

func newColumn(s *componentStore, capacity int) *column {
	c := &column{size: s.size, ops: s.ops, store: s, trivial: s.trivial}
	c.ptr = s.ops.alloc(capacity)
	c.added = make([]uint32, capacity)
	c.changed = make([]uint32, capacity)
	np := pagesFor(capacity)
	c.pageChanged = make([]uint32, np)
	c.pageOlder = make([]uint32, np)
	c.pageMask = make([]uint64, np)
	c.pageAdded = make([]uint32, np)
	return c
}

func pagesFor(rows int) int { return (rows + pageRows - 1) >> pageShift }

// grow reallocates the column to hold newCap rows, keeping the first n.
func (c *column) grow(n, newCap int) {
	c.ptr = c.ops.grow(c.ptr, n, newCap)
	c.added = growSlice(c.added, newCap)
	c.changed = growSlice(c.changed, newCap)
	np := pagesFor(newCap)
	c.pageChanged = growSlice(c.pageChanged, np)
	c.pageOlder = growSlice(c.pageOlder, np)
	c.pageMask = growSlice(c.pageMask, np)
	c.pageAdded = growSlice(c.pageAdded, np)
}

// resize reallocates the column to hold newCap rows (fewer than it has room for, or more), keeping the first n.
func (c *column) resize(n, newCap int) {
	c.ptr = c.ops.grow(c.ptr, n, newCap)
	c.added = resizeSlice(c.added, n, newCap)
	c.changed = resizeSlice(c.changed, n, newCap)
	np, used := pagesFor(newCap), pagesFor(n)
	c.pageChanged = resizeSlice(c.pageChanged, used, np)
	c.pageOlder = resizeSlice(c.pageOlder, used, np)
	c.pageMask = resizeSlice(c.pageMask, used, np)
	c.pageAdded = resizeSlice(c.pageAdded, used, np)
}

// resizeSlice returns a new slice of length size holding the first n of s.
func resizeSlice[T any](s []T, n, size int) []T {
	ns := make([]T, size)
	prefault.Slice(ns)
	copyInChunks(ns, s[:n])
	return ns
}

func growSlice[T any](s []T, n int) []T {
	if len(s) >= n {
		return s
	}
	ns := make([]T, n)
	prefault.Slice(ns)
	copyInChunks(ns, s)
	return ns
}

func (c *column) at(row uint32) unsafe.Pointer {
	return unsafe.Add(c.ptr, uintptr(row)*c.size)
}

// changedAt returns the effective changed tick of a row.
func (c *column) changedAt(row uint32) uint32 {
	return max(c.changed[row], c.floor)
}

// setChanged stores a row's raw changed tick and keeps its page summary exact for that row.
func (c *column) setChanged(row uint32, tick uint32) {
	c.changed[row] = tick
	c.stampPage(row>>pageShift, uint64(1)<<(row&(pageRows-1)), tick)
}

// stampPage keeps page p's summary exact after the rows of bits (of the page) got changed tick.
func (c *column) stampPage(p uint32, bits uint64, tick uint32) {
	switch cur := c.pageChanged[p]; {
	case tick > cur:
		c.pageOlder[p] = max(c.pageOlder[p], cur)
		c.pageChanged[p] = tick
		c.pageMask[p] = bits
	case tick == cur:
		c.pageMask[p] |= bits
	default:
		c.pageMask[p] &^= bits
		c.pageOlder[p] = max(c.pageOlder[p], tick)
	}
}

// initFresh stamps a freshly created value at the world's current tick, which is not older than any
// tick in the column (so no floor to fold and the page summary only grows).
func (c *column) initFresh(row uint32, tick uint32) {
	c.added[row] = tick
	c.changed[row] = tick
	p := row >> pageShift
	bit := uint64(1) << (row & (pageRows - 1))
	if cur := c.pageChanged[p]; cur == tick {
		c.pageMask[p] |= bit
	} else {
		c.pageOlder[p] = max(c.pageOlder[p], cur)
		c.pageChanged[p] = tick
		c.pageMask[p] = bit
	}
	c.pageAdded[p] = tick
	c.store.lastChange = tick
}

// setTicks stores both ticks of a row (a new or moved-in value). n is the number of rows in use.
func (c *column) setTicks(row uint32, added, changed uint32, n int) {
	if changed < c.floor {
		c.materialize(n)
	}
	c.added[row] = added
	if p := row >> pageShift; c.pageAdded[p] < added {
		c.pageAdded[p] = added
	}
	c.setChanged(row, changed)
	if c.store.lastChange < changed {
		c.store.lastChange = changed
	}
}

// setTicksRange is setTicks(row, tick, tick, n) for each row of [from, to) in turn (fresh rows at the end of the
// rows in use, n the rows in use after them), a page at a time: a restore of a million rows stamps them in bulk.
func (c *column) setTicksRange(from, to uint32, tick uint32) {
	if from >= to {
		return
	}
	if tick < c.floor {
		c.materialize(int(from) + 1) // as setTicks of the first row would
	}
	fill(c.added[from:to], tick)
	fill(c.changed[from:to], tick)
	for p := from >> pageShift; p<<pageShift < to; p++ {
		lo, hi := max(from, p<<pageShift), min(to, (p+1)<<pageShift)
		bits := ^uint64(0) >> (pageRows - (hi - lo)) << (lo & (pageRows - 1))
		if c.pageAdded[p] < tick {
			c.pageAdded[p] = tick
		}
		c.stampPage(p, bits, tick)
	}
	if c.store.lastChange < tick {
		c.store.lastChange = tick
	}
}

func fill(s []uint32, v uint32) {
	for i := range s {
		s[i] = v
	}
}

// markChanged records a write to one row at tick.
func (c *column) markChanged(row uint32, tick uint32) {
	c.setChanged(row, tick)
	if c.store.lastChange < tick {
		c.store.lastChange = tick
	}
}

// markRange records a write to rows [from, to) at tick. Marking all n rows only moves the floor.
func (c *column) markRange(from, to uint32, n int, tick uint32) {
	if from == 0 && int(to) >= n {
		if c.floor < tick {
			c.floor = tick
		}
	} else {
		for r := from; r < to; r++ {
			c.setChanged(r, tick)
		}
	}
	if from < to && c.store.lastChange < tick {
		c.store.lastChange = tick
	}
}

// materialize folds the floor into the first n rows and rebuilds their page summaries.
func (c *column) materialize(n int) {
	f := c.floor
	if f == 0 {
		return
	}
	c.floor = 0
	ch := c.changed[:n]
	for i, t := range ch {
		if t < f {
			ch[i] = f
		}
	}
	for p := range pagesFor(n) {
		c.rebuildPage(p, n)
	}
}

// rebuildPage recomputes the change summary of page p from its rows (n rows in use).
func (c *column) rebuildPage(p, n int) {
	lo := p << pageShift
	hi := min(lo+pageRows, n)
	var newest, older uint32
	var mask uint64
	for r := lo; r < hi; r++ {
		t := c.changed[r]
		bit := uint64(1) << (r - lo)
		switch {
		case t > newest:
			older = max(older, newest)
			newest, mask = t, bit
		case t == newest:
			mask |= bit
		default:
			older = max(older, t)
		}
	}
	c.pageChanged[p], c.pageOlder[p], c.pageMask[p] = newest, older, mask
}

// copyValue copies one value from src to dst: a plain memory copy for pointer-free types, a typed
// assignment (with the garbage collector's write barriers) otherwise.
func (c *column) copyValue(dst, src unsafe.Pointer) {
	if !c.trivial {
		c.ops.move(dst, src)
		return
	}
	switch c.size {
	case 0:
	case 8:
		*(*[8]byte)(dst) = *(*[8]byte)(src)
	case 16:
		*(*[16]byte)(dst) = *(*[16]byte)(src)
	case 24:
		*(*[24]byte)(dst) = *(*[24]byte)(src)
	case 32:
		*(*[32]byte)(dst) = *(*[32]byte)(src)
	default:
		copy(unsafe.Slice((*byte)(dst), c.size), unsafe.Slice((*byte)(src), c.size))
	}
}

// moveWithin copies row src over row dst of the same column (swap-remove), value and raw ticks.
func (c *column) moveWithin(dst, src uint32) {
	c.copyValue(c.at(dst), c.at(src))
	a := c.added[src]
	c.added[dst] = a
	if p := dst >> pageShift; c.pageAdded[p] < a {
		c.pageAdded[p] = a
	}
	c.setChanged(dst, c.changed[src])
}

// clear zeroes a vacated row so that the garbage collector can release what it referenced.
func (c *column) clear(row uint32) {
	if !c.trivial {
		c.ops.zero(c.at(row))
	}
}

// nextChangedRun returns the first run [start, end) of consecutive rows at or after from (and below
// n) whose changed tick is newer than last, or ok=false. It skips untouched pages and takes the
// changed rows of a page from its mask when the page has nothing older that is newer than last. It
// assumes floor <= last.
func (c *column) nextChangedRun(from, n uint32, last uint32) (start, end uint32, ok bool) {
	for r := from; r < n; {
		p := r >> pageShift
		if c.pageChanged[p] <= last {
			r = (p + 1) << pageShift
			continue
		}
		base := p << pageShift
		if c.pageOlder[p] <= last {
			m := c.pageMask[p] >> (r - base)
			if m == 0 {
				r = base + pageRows
				continue
			}
			s := r + uint32(bits.TrailingZeros64(m))
			if s >= n {
				return 0, 0, false
			}
			run := uint32(bits.TrailingZeros64(^(m >> (s - r))))
			e := min(s+run, n)
			return s, e, true
		}
		hi := min(base+pageRows, n)
		for ; r < hi; r++ {
			if c.changed[r] > last {
				s := r
				for r++; r < hi && c.changed[r] > last; r++ {
				}
				return s, r, true
			}
		}
	}
	return 0, 0, false
}
