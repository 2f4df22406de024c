package ecs

// table holds the entities of one archetype (one set of Table components): an entity column and one
// column per component, all with the same number of rows. Rows are kept dense by swap-remove.
type table struct {
	index    uint32
	mask     mask
	ids      []ComponentID // ascending
	cols     []*column     // same order as ids
	entities []Entity      // len == rows in use
	cap      int
	pointers bool // some column holds pointers: vacated rows must be cleared
	// edges cache archetype-graph transitions: addEdge[id] / removeEdge[id] is the transition to the
	// table reached by adding / removing component id, or nil if not computed yet.
	addEdge    []*transition
	removeEdge []*transition
}

func (t *table) len() int { return len(t.entities) }

// bigTable is the capacity in rows from which a table grows by a quarter instead of doubling: a big table's
// spare rows are memory the world holds (a 100k spawn beside a million rows would double them to two million).
const bigTable = 1 << 16

// grownCap returns the capacity a table of capacity c grows to when it needs need rows: double while small,
// a quarter more once big (as Go's append), and never less than need.
func grownCap(c, need int) int {
	if c < bigTable {
		return max(c*2, 8, need)
	}
	return max(c+c/4, need)
}

// ensure makes room for n more rows.
func (t *table) ensure(n int) {
	need := len(t.entities) + n
	if need <= t.cap {
		return
	}
	nc := grownCap(t.cap, need)
	for _, c := range t.cols {
		c.grow(len(t.entities), nc)
	}
	es := make([]Entity, len(t.entities), nc)
	copyInChunks(es, t.entities)
	t.entities = es
	t.cap = nc
}

// pushEntity appends a row for e (columns are left for the caller to fill) and returns its index.
func (t *table) pushEntity(e Entity) uint32 {
	if len(t.entities) == t.cap {
		t.ensure(1)
	}
	row := uint32(len(t.entities))
	t.entities = append(t.entities, e)
	return row
}

// newTable creates the table for mask m and registers its columns with the component stores.
func (w *World) newTable(m mask) *table {
	w.beforeWrite()
	t := &table{index: uint32(len(w.tables)), mask: m}
	t.ids = m.ids(nil)
	t.cols = make([]*column, len(t.ids))
	for i, id := range t.ids {
		t.cols[i] = newColumn(w.comps[id], 0)
		t.pointers = t.pointers || !t.cols[i].trivial
	}
	w.tables = append(w.tables, t)
	w.tableByMask[m] = t
	for _, s := range w.comps {
		s.cols = append(s.cols, nil)
	}
	for i, id := range t.ids {
		w.comps[id].cols[t.index] = t.cols[i]
	}
	return t
}

func (w *World) tableFor(m mask) *table {
	if t, ok := w.tableByMask[m]; ok {
		return t
	}
	return w.newTable(m)
}

// transition is a cached move from one table to another: the target and, for each of its columns,
// the source table's column of the same component (nil if the source lacks it).
type transition struct {
	to  *table
	src []*column
}

// transition returns the move plan from table from to table to.
func (w *World) transition(from, to *table) *transition {
	tr := &transition{to: to, src: make([]*column, len(to.ids))}
	for i, id := range to.ids {
		tr.src[i] = w.comps[id].cols[from.index]
	}
	return tr
}

// tableWith returns the transition from t to the table with component id added (archetype graph).
func (w *World) tableWith(t *table, id ComponentID) *transition {
	if t.addEdge != nil {
		if tr := t.addEdge[id]; tr != nil {
			return tr
		}
	} else {
		t.addEdge = make([]*transition, MaxComponents)
	}
	m := t.mask
	m.set(id)
	tr := w.transition(t, w.tableFor(m))
	t.addEdge[id] = tr
	return tr
}

// tableWithout returns the transition from t to the table with component id removed.
func (w *World) tableWithout(t *table, id ComponentID) *transition {
	if t.removeEdge != nil {
		if tr := t.removeEdge[id]; tr != nil {
			return tr
		}
	} else {
		t.removeEdge = make([]*transition, MaxComponents)
	}
	m := t.mask
	m.clear(id)
	tr := w.transition(t, w.tableFor(m))
	t.removeEdge[id] = tr
	return tr
}

// removeRow swap-removes a row: the last row moves into it (its entity's record is updated).
func (w *World) removeRow(t *table, row uint32) {
	last := uint32(len(t.entities) - 1)
	if row != last {
		for _, c := range t.cols {
			c.moveWithin(row, last)
		}
		moved := t.entities[last]
		t.entities[row] = moved
		w.records[moved.index].row = row
	}
	if t.pointers {
		for _, c := range t.cols {
			c.clear(last)
		}
	}
	t.entities = t.entities[:last]
}

// moveEntity moves entity e from its table (the source of transition tr) to tr.to, copying the
// components both tables share (values and ticks). Components only in the target are left for the
// caller to initialise; it returns the new row.
func (w *World) moveEntity(e Entity, tr *transition) uint32 {
	rec := &w.records[e.index]
	from := w.tables[rec.table]
	src := rec.row
	to := tr.to
	dst := to.pushEntity(e)
	n := len(to.entities)
	for i, dc := range to.cols {
		if sc := tr.src[i]; sc != nil {
			dc.copyValue(dc.at(dst), sc.at(src))
			dc.setTicks(dst, sc.added[src], sc.changedAt(src), n)
		}
	}
	w.removeRow(from, src)
	rec = &w.records[e.index]
	rec.table = to.index
	rec.row = dst
	return dst
}
