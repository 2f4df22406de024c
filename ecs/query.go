package ecs

import (
	"fmt"
	"slices"
	"unsafe"
)

// maxQ is the largest number of typed components in a query (Query1..Query6).
const maxQ = 6

// queryState is the non-generic part of a typed query: what it matches, what it writes, its cache
// of matching tables and the tick of its last run.
type queryState struct {
	w        *World
	ids      []ComponentID // typed components, in type-parameter order
	optional [maxQ]bool
	write    [maxQ]bool
	isSparse [maxQ]bool

	required  mask // Table components an entity's table must have
	excluded  mask // Table components it must not have
	sparseReq []ComponentID
	sparseEx  []ComponentID
	changed   []ComponentID
	added     []ComponentID
	with      []ComponentID // With terms (for access declarations)

	filtered  bool // has Changed or Added terms
	tableIter bool // NextTable may be used: no per-row conditions and no SparseSet components
	// fastChanged is set when the only per-row condition is one Changed term on a Table component:
	// runs then come straight from the column's page summaries.
	fastChanged *componentStore
	rowFilter   bool // rows must be checked one by one in table mode
	perRow      bool // component pointers differ per row (optional SparseSet component)
	sparseDrv   bool // iteration is driven by a required SparseSet component

	lastRun uint32
	cur     cursor   // the iteration in progress (one at a time per query)
	tables  []*table // matching tables (cache)
	matchT  []bool   // by table index
	seen    int      // number of world tables examined for the cache
}

func newQueryState(w *World, ids []ComponentID, terms []Term) *queryState {
	q := &queryState{w: w, ids: ids}
	for i, id := range ids {
		if slices.Contains(ids[:i], id) {
			panic(fmt.Sprintf("ecs: query lists component %s twice", w.comps[id].info.Name))
		}
		q.write[i] = !w.comps[id].info.Computed
		q.isSparse[i] = w.comps[id].sparse != nil
	}
	index := func(t Term) int {
		id := w.termID(t)
		i := slices.Index(ids, id)
		if i < 0 {
			panic(fmt.Sprintf("ecs: %v names a component that is not one of the query's type parameters", t))
		}
		return i
	}
	var req []ComponentID
	for _, t := range terms {
		switch t.kind {
		case termOptional:
			q.optional[index(t)] = true
		case termRead:
			q.write[index(t)] = false
		case termWith:
			id := w.termID(t)
			q.with = append(q.with, id)
			req = append(req, id)
		case termWithout:
			id := w.termID(t)
			if w.comps[id].sparse != nil {
				q.sparseEx = append(q.sparseEx, id)
			} else {
				q.excluded.set(id)
			}
		case termChanged:
			q.changed = append(q.changed, w.termID(t))
		case termAdded:
			q.added = append(q.added, w.termID(t))
		}
	}
	for i, id := range ids {
		if !q.optional[i] {
			req = append(req, id)
		} else if q.isSparse[i] {
			q.perRow = true
		}
	}
	for _, id := range append(append([]ComponentID(nil), q.changed...), q.added...) {
		if i := slices.Index(ids, id); i >= 0 && q.optional[i] {
			panic(fmt.Sprintf("ecs: component %s is both Optional and filtered by Changed/Added", w.comps[id].info.Name))
		}
		req = append(req, id)
	}
	for _, id := range req {
		if w.comps[id].sparse != nil {
			if !slices.Contains(q.sparseReq, id) {
				q.sparseReq = append(q.sparseReq, id)
			}
		} else {
			q.required.set(id)
		}
	}
	if q.required.containsAny(&q.excluded) {
		panic("ecs: a query both requires and excludes the same component")
	}
	for _, id := range q.sparseEx {
		if slices.Contains(q.sparseReq, id) {
			panic("ecs: a query both requires and excludes the same component")
		}
	}
	q.filtered = len(q.changed)+len(q.added) > 0
	q.sparseDrv = len(q.sparseReq) > 0
	q.rowFilter = q.filtered || len(q.sparseEx) > 0 || q.perRow
	q.tableIter = !q.rowFilter && !q.sparseDrv && !slices.Contains(q.isSparse[:len(ids)], true)
	if len(q.changed) == 1 && len(q.added) == 0 && len(q.sparseEx) == 0 && !q.sparseDrv && !q.perRow &&
		w.comps[q.changed[0]].sparse == nil {
		q.fastChanged = w.comps[q.changed[0]]
	}
	return q
}

// refresh adds the world's new tables to the cache of matching tables.
func (q *queryState) refresh() {
	w := q.w
	for ; q.seen < len(w.tables); q.seen++ {
		t := w.tables[q.seen]
		ok := t.mask.containsAll(&q.required) && !t.mask.containsAny(&q.excluded)
		q.matchT = append(q.matchT, ok)
		if ok {
			q.tables = append(q.tables, t)
		}
	}
}

// rowOK checks the per-row conditions (SparseSet membership, Changed, Added) of row r of table t.
func (q *queryState) rowOK(t *table, r uint32) bool {
	w := q.w
	idx := t.entities[r].index
	for _, id := range q.sparseEx {
		if w.comps[id].sparse.has(idx) {
			return false
		}
	}
	if q.sparseDrv {
		for _, id := range q.sparseReq {
			if !w.comps[id].sparse.has(idx) {
				return false
			}
		}
	}
	for _, id := range q.changed {
		c, row := q.colRow(t, r, idx, id)
		if c.changedAt(row) <= q.lastRun {
			return false
		}
	}
	for _, id := range q.added {
		c, row := q.colRow(t, r, idx, id)
		if c.added[row] <= q.lastRun {
			return false
		}
	}
	return true
}

// colRow returns where component id of the entity at row r of table t lives (the entity has it).
func (q *queryState) colRow(t *table, r uint32, idx uint32, id ComponentID) (*column, uint32) {
	s := q.w.comps[id]
	if s.sparse != nil {
		return s.sparse.col, uint32(s.sparse.row(idx))
	}
	return s.cols[t.index], r
}

// count returns the number of entities the query matches now (filters evaluated against the last
// run, like an iteration would).
func (q *queryState) count() int {
	q.refresh()
	n := 0
	if q.sparseDrv {
		d := q.driver()
		for _, e := range d.dense {
			rec := q.w.records[e.index]
			if q.matchT[rec.table] && q.rowOK(q.w.tables[rec.table], rec.row) {
				n++
			}
		}
		return n
	}
	for _, t := range q.tables {
		if !q.rowFilter {
			n += t.len()
			continue
		}
		for r := range uint32(t.len()) {
			if q.rowOK(t, r) {
				n++
			}
		}
	}
	return n
}

// driver returns the smallest required SparseSet.
func (q *queryState) driver() *sparseSet {
	var d *sparseSet
	for _, id := range q.sparseReq {
		s := q.w.comps[id].sparse
		if d == nil || s.len() < d.len() {
			d = s
		}
	}
	return d
}

const (
	curIdle = iota
	curRunning
	curDone
)

// cursor is the iteration state of a query (it lives in the query: one iteration at a time). It
// produces runs: ranges [start, end) of consecutive rows of one table that all match and in which
// every typed component is present. Typed iterators copy the run's first-row pointers and iterate it
// on their own (see iter); everything else happens here.
type cursor struct {
	start, end uintptr // the current run
	ptr        [maxQ]unsafe.Pointer
	stride     [maxQ]uintptr

	q      *queryState
	t      *table
	cols   [maxQ]*column
	ti     int
	tick   uint32
	state  uint8
	inRun  bool
	locked bool
	// single makes every run one row long: the query has an Optional SparseSet component, or the
	// current table lacks an Optional component.
	single bool
	driver *sparseSet
	// Changed runs found ahead (fastChanged): their first rows were touched together so that their
	// cache misses overlap instead of stalling one by one.
	ahead     [aheadRuns][2]uint32
	aheadN    int
	aheadI    int
	aheadFrom uint32
	sink      byte
}

// aheadRuns is how many Changed runs are located and touched in one batch.
const aheadRuns = 16

func (c *cursor) begin(q *queryState) {
	w := q.w
	if c.state == curRunning {
		panic("ecs: this query is already being iterated (a nested loop over the same query, or a loop left " +
			"without calling Close): create a second query for the inner loop, or call Close on the iterator")
	}
	if w.checking != nil {
		w.checkQueryAccess(q)
	}
	if len(w.loans) > 0 || len(w.shares) > 0 {
		for i, id := range q.ids {
			if q.write[i] {
				w.beforeValueWrite(id)
			}
		}
	}
	*c = cursor{}
	q.refresh()
	c.q = q
	c.tick = w.tick
	c.state = curRunning
	if !w.frozen {
		w.locks++
		c.locked = true
	}
	if q.sparseDrv {
		c.driver = q.driver()
	}
}

// step finishes the current run and reports whether the iteration is still running; what names
// the caller for the panic message of an iterator that was never started.
func (c *cursor) step(what string) bool {
	if c.inRun {
		c.finishRun(c.end)
	}
	if c.state == curIdle {
		panic("ecs: " + what + " called on an iterator that was not created with Query.Iter")
	}
	return c.state == curRunning
}

// nextTableOf moves to the next matching non-empty table; at the end it finishes the iteration.
func (c *cursor) nextTableOf() (*table, bool) {
	q := c.q
	for c.ti < len(q.tables) {
		t := q.tables[c.ti]
		c.ti++
		if t.len() != 0 {
			c.setTable(t)
			return t, true
		}
	}
	c.finish()
	return nil, false
}

// advance finishes the current run and finds the next one; it reports false when iteration ends.
func (c *cursor) advance() bool {
	if !c.step("Next") {
		return false
	}
	q := c.q
	if c.driver != nil {
		return c.nextSparse()
	}
	for {
		if c.t != nil && (q.rowFilter || c.single) {
			if c.findRun(uint32(c.end)) {
				return true
			}
			c.t = nil
		}
		t, ok := c.nextTableOf()
		if !ok {
			return false
		}
		if !q.rowFilter && !c.single {
			c.start, c.end = 0, uintptr(t.len())
			c.inRun = true
			return true
		}
		if c.findRun(0) {
			return true
		}
		c.t = nil
	}
}

// nextTable moves to the next matching table as a whole (column iteration).
func (c *cursor) nextTable() bool {
	if !c.step("NextTable") {
		return false
	}
	q := c.q
	if !q.tableIter {
		c.closeAt(0)
		panic("ecs: NextTable, Columns and EachTable cannot be used with Changed, Added, Without on SparseSet or SparseSet " +
			"components in the query: iterate with Next and Get instead")
	}
	t, ok := c.nextTableOf()
	if !ok {
		return false
	}
	c.start, c.end = 0, uintptr(t.len())
	c.inRun = true
	return true
}

func (c *cursor) setTable(t *table) {
	c.t = t
	c.single = c.q.perRow
	c.aheadI, c.aheadN, c.aheadFrom = 0, 0, 0
	w := c.q.w
	for k, id := range c.q.ids {
		s := w.comps[id]
		if s.sparse != nil {
			c.cols[k] = nil
			c.ptr[k] = nil
			c.stride[k] = 0
			continue
		}
		col := s.cols[t.index]
		c.cols[k] = col
		if col == nil {
			c.ptr[k] = nil
			c.stride[k] = 0
			c.single = true // an absent Optional component
		} else {
			c.ptr[k] = col.ptr
			c.stride[k] = col.size
		}
	}
}

// setSparsePtrs points the query's SparseSet components at the entity in row r (for one-row runs).
func (c *cursor) setSparsePtrs(r uint32) {
	w := c.q.w
	idx := c.t.entities[r].index
	for k, id := range c.q.ids {
		if !c.q.isSparse[k] {
			continue
		}
		s := w.comps[id].sparse
		sr := s.row(idx)
		if sr < 0 {
			c.ptr[k] = nil
		} else {
			c.ptr[k] = s.col.at(uint32(sr))
		}
		c.stride[k] = 0
	}
}

// fillAhead locates the next Changed runs of the current table from row from and touches their first
// rows, so that the memory loads of scattered changes overlap. It reports false if there are none.
func (c *cursor) fillAhead(col *column, from, n uint32) bool {
	c.aheadI, c.aheadN = 0, 0
	last := c.q.lastRun
	for c.aheadN < aheadRuns {
		s, e, ok := col.nextChangedRun(from, n, last)
		if !ok {
			break
		}
		c.ahead[c.aheadN] = [2]uint32{s, e}
		c.aheadN++
		from = e
		if e-s >= 8 {
			break // dense: no need to look further ahead
		}
	}
	c.aheadFrom = from
	if c.aheadN == 0 {
		return false
	}
	if rows := c.ahead[c.aheadN-1][1] - c.ahead[0][0]; c.aheadN > 1 && rows > 64*uint32(c.aheadN) {
		// scattered runs: touch their first rows in a tight loop of independent loads, so that the
		// cache misses overlap (dense runs are streamed by the hardware prefetcher anyway)
		c.touchAhead()
	}
	return true
}

func (c *cursor) touchAhead() {
	var sink byte
	for _, kc := range c.cols {
		if kc != nil && kc.size != 0 {
			for _, r := range c.ahead[:c.aheadN] {
				sink += *(*byte)(kc.at(r[0]))
			}
		}
	}
	c.sink += sink
}

// findRun finds the next run of matching rows in the current table from row from.
func (c *cursor) findRun(from uint32) bool {
	q := c.q
	t := c.t
	n := uint32(t.len())
	if s := q.fastChanged; s != nil {
		col := s.cols[t.index]
		start, end := from, n
		if col.floor <= q.lastRun {
			for {
				if c.aheadI == c.aheadN && !c.fillAhead(col, max(from, c.aheadFrom), n) {
					return false
				}
				r := &c.ahead[c.aheadI]
				start, end = max(r[0], from), r[1]
				if start < end {
					break
				}
				c.aheadI++
			}
			if !c.single || start+1 >= end {
				c.aheadI++ // consumed (one-row runs take the buffered run row by row)
			}
		} else if from >= n {
			return false
		}
		if c.single {
			end = start + 1
		}
		c.start, c.end = uintptr(start), uintptr(end)
		c.inRun = true
		return true
	}
	// page filter: the first Changed/Added term on a Table component
	var pages []uint32
	for _, id := range q.changed {
		if s := q.w.comps[id]; s.sparse == nil {
			col := s.cols[t.index]
			if col.floor <= q.lastRun {
				pages = col.pageChanged
			}
			break
		}
	}
	if pages == nil {
		for _, id := range q.added {
			if s := q.w.comps[id]; s.sparse == nil {
				pages = s.cols[t.index].pageAdded
				break
			}
		}
	}
	last := q.lastRun
	for r := from; r < n; {
		if pages != nil {
			if p := r >> pageShift; pages[p] <= last {
				r = (p + 1) << pageShift
				continue
			}
		}
		if !q.rowOK(t, r) {
			r++
			continue
		}
		start := r
		r++
		if !c.single {
			for r < n && q.rowOK(t, r) {
				r++
			}
		}
		c.start, c.end = uintptr(start), uintptr(r)
		c.inRun = true
		if q.perRow {
			c.setSparsePtrs(start)
		}
		return true
	}
	return false
}

func (c *cursor) nextSparse() bool {
	q := c.q
	w := q.w
	d := c.driver
	for c.ti < len(d.dense) {
		e := d.dense[c.ti]
		c.ti++
		rec := w.records[e.index]
		if !q.matchT[rec.table] {
			continue
		}
		t := w.tables[rec.table]
		if !q.rowOK(t, rec.row) {
			continue
		}
		if c.t != t {
			c.setTable(t)
		}
		c.setSparsePtrs(rec.row)
		c.start, c.end = uintptr(rec.row), uintptr(rec.row)+1
		c.inRun = true
		return true
	}
	c.finish()
	return false
}

// finishRun marks the written components of rows [start, end) of the current run as changed.
func (c *cursor) finishRun(end uintptr) {
	c.inRun = false
	q := c.q
	t := c.t
	n := t.len()
	for k := range q.ids {
		if !q.write[k] {
			continue
		}
		if col := c.cols[k]; col != nil {
			col.markRange(uint32(c.start), uint32(end), n, c.tick)
			continue
		}
		if q.isSparse[k] {
			s := q.w.comps[q.ids[k]].sparse
			for r := c.start; r < end; r++ {
				if sr := s.row(t.entities[r].index); sr >= 0 {
					s.col.markChanged(uint32(sr), c.tick)
				}
			}
		}
	}
}

func (c *cursor) finish() {
	if c.state != curRunning {
		return
	}
	c.state = curDone
	c.t = nil
	c.start, c.end = 0, 0
	q := c.q
	if c.locked {
		q.w.locks--
		c.locked = false
	}
	q.lastRun = c.tick
	if q.filtered {
		q.w.advanceTick()
	}
}

// closeAt ends an iteration early, after visiting rows [start, row] of the current run: those are
// marked, the world is unlocked and the query's last run is recorded. It is safe to call more than
// once.
func (c *cursor) closeAt(row uintptr) {
	if c.state != curRunning {
		return
	}
	if c.inRun {
		c.finishRun(min(row+1, c.end))
	}
	c.finish()
}

// closeTable ends an iteration by tables early (EachTable's fn panicked): the whole current table
// counts as visited, as it does for NextTable.
func (c *cursor) closeTable() {
	if c.state == curRunning {
		c.closeAt(c.end - 1)
	}
}

func (c *cursor) entities() []Entity {
	if c.t == nil {
		return nil
	}
	return c.t.entities[c.start:c.end:c.end]
}

// iter is the non-generic part of the typed iterators: the hot state of the current run (the row
// relative to the run start, the run length, pointers to the run's first row of each component,
// nil for an absent Optional one, and to its first entity), on the caller's stack, and the query's
// cursor for everything else. Next is small enough to be inlined; the generated Get adds
// row*unsafe.Sizeof(T), a constant, to each pointer.
type iter struct {
	row, end uintptr // current row (relative to the run start), run length
	c        *cursor
	ptr      [maxQ]unsafe.Pointer
	ents     unsafe.Pointer
}

// Next advances to the next matching entity and reports whether there is one.
func (it *iter) Next() bool {
	if it.row++; it.row < it.end {
		return true
	}
	return it.next()
}

// next is the slow path of Next: it finishes the current run and loads the next one.
//
//go:noinline
func (it *iter) next() bool {
	c := it.c
	if !c.advance() {
		it.row, it.end = 0, 0
		return false
	}
	it.load()
	return true
}

// load copies the cursor's run into the iterator.
func (it *iter) load() {
	c := it.c
	it.row, it.end = 0, c.end-c.start
	for k := range c.q.ids { // it.ptr[k] stays nil beyond the query's components
		if p := c.ptr[k]; p != nil {
			it.ptr[k] = unsafe.Add(p, c.start*c.stride[k])
		} else {
			it.ptr[k] = nil
		}
	}
	it.ents = unsafe.Pointer(&c.t.entities[c.start])
}

// Entity returns the current entity.
func (it *iter) Entity() Entity {
	return *(*Entity)(unsafe.Add(it.ents, it.row*unsafe.Sizeof(Entity{})))
}

// NextTable advances to the next matching table for column-wise iteration with Columns and
// Entities. It panics for queries with per-row conditions (Changed, Added, SparseSet components).
func (it *iter) NextTable() bool {
	if !it.c.nextTable() {
		it.row, it.end = 0, 0
		return false
	}
	it.load()
	it.row = it.end - 1 // the whole table counts as visited
	return true
}

// Entities returns the current table's entities (column-wise iteration). Do not modify the slice.
func (it *iter) Entities() []Entity { return it.c.entities() }

// Close ends the iteration early (needed only when breaking out of the loop): the rows visited so
// far are marked, the world is unlocked and the query's last run is recorded. It is safe to call
// more than once.
func (it *iter) Close() { it.c.closeAt(it.c.start + it.row) }
