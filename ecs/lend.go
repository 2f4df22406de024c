package ecs

import "sync"

// Lend lends the world to readers on other goroutines — a save that encodes it straight from its columns, with no
// copy made first — while the owning goroutine goes on using it. Until the returned end is called (from any
// goroutine; more than once is fine), the owner's next write waits: a structural change (spawn, despawn, Add,
// Remove, a command buffer, a Room), a value written (Map.Mut and Set, World.Set and SetField, a query that writes,
// typed maps of several components), a hierarchy change, a new table or a registration first calls reclaim (if not
// nil) and, unless it returns true, waits for end. reclaim returning true says the readers gave the world back
// without reading it (a job not started yet, handed a copy instead); it runs on the owner's goroutine, may read the
// world, and is called once.
//
// Reads go on as usual on the owning goroutine, and so do the writes readers never see: change ticks, query
// bookkeeping and the world matrices ([World.PropagateTransforms]: readers must not read GlobalTransform).
//
// What the readers may call: [Map.Get], [Map.TryGet], [Map.Has], [World.Get], [World.Has], [World.Alive],
// [World.Len], [World.Parent], [World.ComponentIDs], [World.ComponentInfo], [World.ReadEntities], NewMap — not
// queries nor EachEntity, which count their iterations in the world.
func (w *World) Lend(reclaim func() bool) (end func()) {
	l := &loan{done: make(chan struct{}), reclaim: reclaim}
	w.loans = append(w.loans, l)
	return l.end
}

// loan is one call of Lend.
type loan struct {
	done    chan struct{}
	once    sync.Once
	reclaim func() bool
}

func (l *loan) end() { l.once.Do(func() { close(l.done) }) }

// Lent reports whether a loan of the world has not ended yet (its readers may still read it).
func (w *World) Lent() bool {
	w.endLoans(false)
	return len(w.loans) > 0
}

// beforeWrite ends the world's loans before the owner writes (each is reclaimed or waited for), and copies what
// its snapshots hold (see Snapshot).
func (w *World) beforeWrite() {
	if len(w.loans) > 0 {
		w.endLoans(true)
	}
	if len(w.shares) > 0 {
		w.unshareAll()
	}
}

// beforeValueWrite is beforeWrite for a write of values of component id only: of what snapshots hold, only id's
// columns are copied.
func (w *World) beforeValueWrite(id ComponentID) {
	if len(w.loans) > 0 {
		w.endLoans(true)
	}
	if len(w.shares) > 0 {
		w.unshareValues(id)
	}
}

// endLoans drops the loans that ended and, with wait, ends the others: reclaimed, or waited for.
func (w *World) endLoans(wait bool) {
	keep := w.loans[:0]
	for _, l := range w.loans {
		select {
		case <-l.done:
			continue
		default:
		}
		if !wait {
			keep = append(keep, l)
			continue
		}
		if r := l.reclaim; r != nil {
			l.reclaim = nil
			if r() {
				l.end()
				continue
			}
		}
		<-l.done
	}
	clear(w.loans[len(keep):])
	w.loans = keep
}

// ReadEntities calls fn for every live entity in ascending index order until fn returns false, as EachEntity does
// but without marking the world as iterated: for readers of a lent world (see Lend). fn must not change the world.
func (w *World) ReadEntities(fn func(Entity) bool) {
	for i := 1; i < len(w.records); i++ {
		r := &w.records[i]
		if r.table == noTable {
			continue
		}
		if !fn(Entity{index: uint32(i), gen: r.gen}) {
			return
		}
	}
}
