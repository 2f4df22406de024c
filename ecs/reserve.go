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

// fitMin is the fewest spare rows a table must have for FitRoom to give its room up.
const fitMin = 4096

// FitRoom gives up the room of tables whose spare rows are more than a quarter of their rows (and at least
// fitMin), keeping an eighth more than their rows, as a load's reservation does: after the undo of a spawn that
// doubled a scene, its table keeps the room the spawn grew it to, memory the next spawn of that size reuses but an
// editor that goes idle may give back. The columns are copied into new storage (the old becomes garbage). It does
// nothing while the world is lent or shared (a save reading it, a snapshot), and cannot run while a query iterates.
// It reports the rows of room given up.
func (w *World) FitRoom() int {
	if len(w.loans) > 0 {
		w.endLoans(false) // drops the loans that ended
	}
	if len(w.loans) > 0 || len(w.shares) > 0 && w.sharesLive() {
		return 0
	}
	freed := 0
	for _, t := range w.tables {
		n := len(t.entities)
		keep := n + n/8
		if t.cap-n <= n/4 || t.cap-keep < fitMin {
			continue
		}
		w.checkStructural("give up room")
		for _, c := range t.cols {
			c.resize(n, keep)
		}
		es := make([]Entity, n, keep)
		copyInChunks(es, t.entities)
		t.entities = es
		freed += t.cap - keep
		t.cap = keep
	}
	return freed
}
