package ecs

// EntityAt returns the handle with slot index index and generation gen: the inverse of Index and
// Generation, for a handle that went through a file or a connection as numbers. It may be stale or
// never have existed; every operation checks it as it checks any handle.
func EntityAt(index, gen uint32) Entity { return Entity{index: index, gen: gen} }

// AppendChanged appends to dst every live entity whose component id was added or changed at a tick
// after since, and returns it. Unlike a Changed query it keeps no state and does not advance the
// tick: a reader that records Tick() and later asks for changes after Tick()-1 sees every write
// made since (some twice). It skips the pages of rows untouched since then, so it costs about the
// number of changed rows, and a whole table marked at once costs a copy of its entity list.
func (w *World) AppendChanged(dst []Entity, id ComponentID, since uint32) []Entity {
	s := w.store(id)
	if s.lastChange <= since {
		return dst
	}
	if s.sparse != nil {
		return appendChangedRows(dst, s.sparse.col, s.sparse.dense, since)
	}
	for ti, c := range s.cols {
		if c != nil {
			dst = appendChangedRows(dst, c, w.tables[ti].entities, since)
		}
	}
	return dst
}

// appendChangedRows appends the entities of the rows of c changed after since.
func appendChangedRows(dst []Entity, c *column, ents []Entity, since uint32) []Entity {
	n := uint32(len(ents))
	if c.floor > since {
		return append(dst, ents...)
	}
	for from := uint32(0); from < n; {
		s, e, ok := c.nextChangedRun(from, n, since)
		if !ok {
			break
		}
		dst = append(dst, ents[s:e]...)
		from = e
	}
	return dst
}

// AdvanceTick ends the current change tick and returns it: writes from now on are stamped with the
// next one. A reader that keeps the returned tick and later asks for the changes after it
// (AppendChanged) sees every write made since exactly once, even while no Update runs. Extra ticks
// do not disturb Changed queries, which compare ticks, never count them. It does nothing while
// systems run in parallel (the tick is frozen then).
func (w *World) AdvanceTick() uint32 {
	t := w.tick
	w.advanceTick()
	return t
}
