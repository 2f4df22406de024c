package ecs

import "slices"

// ReserveLike makes room for n more entities with the components e has: e's table grows once to hold them, and
// the entity records as well, so that spawning that many grows nothing step by step. A loader that knows about
// how many alike entities follow uses it: a table of a million rows grown a quarter at a time copied its
// columns some twenty times over (about four times their final size), into fresh pages each time. Spawning
// fewer than reserved is fine (the room stays for later spawns); more grows as usual. A dead e, or n ≤ 0, does
// nothing. Like a spawn, it cannot run while a query iterates.
func (w *World) ReserveLike(e Entity, n int) {
	if n <= 0 || !w.Alive(e) {
		return
	}
	w.checkStructural("reserve room for entities")
	w.tables[w.records[e.index].table].ensure(n)
	if free := len(w.free); n > free {
		w.records = slices.Grow(w.records, n-free)
	}
}

// IndexCap is how many entity indexes the world has room for before its records grow (every Entity's Index is
// below it). Arrays kept by entity index beside the world (a viewport's, a selection's) grow to it at once: they
// then grow when the world's records do, once, and not by steps or at the first spawn after a load, each a copy
// into fresh pages at a million entities.
func (w *World) IndexCap() int { return cap(w.records) }

// SameComponents reports whether a and b are both alive and have the same components (in the same table; the
// components kept in sparse sets are not compared).
func (w *World) SameComponents(a, b Entity) bool {
	return w.Alive(a) && w.Alive(b) && w.records[a.index].table == w.records[b.index].table
}
