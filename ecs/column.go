package ecs

import "unsafe"

// pageShift sets the number of rows (1<<pageShift) covered by one entry of a column's change-tick
// summaries. A Changed or Added query skips every page whose summary is not newer than its last run.
const pageShift = 4

// column stores one component's values for the rows of a table (or of a sparse set), with an added
// and a changed tick per row.
//
// Bulk marks are lazy: a query that writes every row of a column sets floor instead of touching each
// row; a row's effective changed tick is max(changed[row], floor). The floor is folded into the rows
// ("materialized") before a row with an older tick is stored into the column.
type column struct {
	ptr     unsafe.Pointer // first value
	size    uintptr        // bytes per value
	ops     columnOps
	store   *componentStore
	added   []uint32 // per row
	changed []uint32 // per row, raw (see floor)
	// pageAdded and pageChanged hold an upper bound of the raw ticks of each page of rows.
	pageAdded   []uint32
	pageChanged []uint32
	floor       uint32
	trivial     bool // values hold no pointers: vacated rows need no clearing
}

func newColumn(s *componentStore, capacity int) *column {
	c := &column{size: s.size, ops: s.ops, store: s, trivial: s.trivial}
	c.ptr = s.ops.alloc(capacity)
	c.added = make([]uint32, capacity)
	c.changed = make([]uint32, capacity)
	np := pagesFor(capacity)
	c.pageAdded = make([]uint32, np)
	c.pageChanged = make([]uint32, np)
	return c
}

func pagesFor(rows int) int { return (rows + (1 << pageShift) - 1) >> pageShift }

// grow reallocates the column to hold newCap rows, keeping the first n.
func (c *column) grow(n, newCap int) {
	c.ptr = c.ops.grow(c.ptr, n, newCap)
	c.added = growU32(c.added, newCap)
	c.changed = growU32(c.changed, newCap)
	np := pagesFor(newCap)
	c.pageAdded = growU32(c.pageAdded, np)
	c.pageChanged = growU32(c.pageChanged, np)
}

func growU32(s []uint32, n int) []uint32 {
	if len(s) >= n {
		return s
	}
	ns := make([]uint32, n)
	copy(ns, s)
	return ns
}

func (c *column) at(row uint32) unsafe.Pointer {
	return unsafe.Add(c.ptr, uintptr(row)*c.size)
}

// changedAt returns the effective changed tick of a row.
func (c *column) changedAt(row uint32) uint32 {
	return max(c.changed[row], c.floor)
}

// setTicks stores both ticks of a row (a new or moved-in value). n is the number of rows in use.
func (c *column) setTicks(row uint32, added, changed uint32, n int) {
	if changed < c.floor {
		c.materialize(n)
	}
	c.added[row] = added
	c.changed[row] = changed
	p := row >> pageShift
	if c.pageAdded[p] < added {
		c.pageAdded[p] = added
	}
	if c.pageChanged[p] < changed {
		c.pageChanged[p] = changed
	}
	if c.store.lastChange < changed {
		c.store.lastChange = changed
	}
}

// markChanged records a write to one row at tick.
func (c *column) markChanged(row uint32, tick uint32) {
	c.changed[row] = tick
	p := row >> pageShift
	if c.pageChanged[p] < tick {
		c.pageChanged[p] = tick
	}
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
		if c.store.lastChange < tick {
			c.store.lastChange = tick
		}
		return
	}
	for r := from; r < to; r++ {
		c.changed[r] = tick
	}
	if from < to {
		for p := from >> pageShift; p <= (to-1)>>pageShift; p++ {
			if c.pageChanged[p] < tick {
				c.pageChanged[p] = tick
			}
		}
		if c.store.lastChange < tick {
			c.store.lastChange = tick
		}
	}
}

// materialize folds the floor into the first n rows and their page summaries.
func (c *column) materialize(n int) {
	f := c.floor
	if f == 0 {
		return
	}
	ch := c.changed[:n]
	for i, t := range ch {
		if t < f {
			ch[i] = f
		}
	}
	for p := range pagesFor(n) {
		if c.pageChanged[p] < f {
			c.pageChanged[p] = f
		}
	}
	c.floor = 0
}

// moveWithin copies row src over row dst of the same column (swap-remove), value and raw ticks.
func (c *column) moveWithin(dst, src uint32) {
	if c.size != 0 {
		c.ops.move(c.at(dst), c.at(src))
	}
	a, ch := c.added[src], c.changed[src]
	c.added[dst] = a
	c.changed[dst] = ch
	p := dst >> pageShift
	if c.pageAdded[p] < a {
		c.pageAdded[p] = a
	}
	if c.pageChanged[p] < ch {
		c.pageChanged[p] = ch
	}
}

// clear zeroes a vacated row so that the garbage collector can release what it referenced.
func (c *column) clear(row uint32) {
	if !c.trivial {
		c.ops.zero(c.at(row))
	}
}
