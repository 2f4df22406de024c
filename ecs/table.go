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
	// edges cache archetype-graph transitions: addEdge[id] / removeEdge[id] is 1 + the index of the
	// table reached by adding / removing component id, or 0 if not computed yet.
	addEdge    []uint32
	removeEdge []uint32
}

func (t *table) len() int { return len(t.entities) }

// ensure makes room for n more rows.
func (t *table) ensure(n int) {
	need := len(t.entities) + n
	if need <= t.cap {
		return
	}
	nc := max(t.cap*2, 8, need)
	for _, c := range t.cols {
		c.grow(len(t.entities), nc)
	}
	es := make([]Entity, len(t.entities), nc)
	copy(es, t.entities)
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
	t := &table{index: uint32(len(w.tables)), mask: m}
	t.ids = m.ids(nil)
	t.cols = make([]*column, len(t.ids))
	for i, id := range t.ids {
		t.cols[i] = newColumn(w.comps[id], 0)
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

// tableWith returns the table reached from t by adding component id (archetype graph).
func (w *World) tableWith(t *table, id ComponentID) *table {
	if t.addEdge != nil {
		if e := t.addEdge[id]; e != 0 {
			return w.tables[e-1]
		}
	} else {
		t.addEdge = make([]uint32, MaxComponents)
	}
	m := t.mask
	m.set(id)
	to := w.tableFor(m)
	t.addEdge[id] = to.index + 1
	return to
}

// tableWithout returns the table reached from t by removing component id.
func (w *World) tableWithout(t *table, id ComponentID) *table {
	if t.removeEdge != nil {
		if e := t.removeEdge[id]; e != 0 {
			return w.tables[e-1]
		}
	} else {
		t.removeEdge = make([]uint32, MaxComponents)
	}
	m := t.mask
	m.clear(id)
	to := w.tableFor(m)
	t.removeEdge[id] = to.index + 1
	return to
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
	for _, c := range t.cols {
		c.clear(last)
	}
	t.entities = t.entities[:last]
}

// moveEntity moves entity e from its table to table to, copying the components both tables share
// (values and ticks). Components only in to are left for the caller to initialise; it returns the
// new row.
func (w *World) moveEntity(e Entity, to *table) uint32 {
	rec := &w.records[e.index]
	from := w.tables[rec.table]
	src := rec.row
	to.ensure(1)
	dst := to.pushEntity(e)
	n := len(to.entities)
	for i, id := range to.ids {
		sc := w.comps[id].cols[from.index]
		if sc == nil {
			continue
		}
		dc := to.cols[i]
		if dc.size != 0 {
			dc.ops.move(dc.at(dst), sc.at(src))
		}
		dc.setTicks(dst, sc.added[src], sc.changedAt(src), n)
	}
	w.removeRow(from, src)
	rec = &w.records[e.index]
	rec.table = to.index
	rec.row = dst
	return dst
}
