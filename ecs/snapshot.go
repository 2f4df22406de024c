package ecs

import (
	"github.com/voltex-editor/voltex/internal/prefault"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Snapshot returns the world as it is now, to read on another goroutine while the owner goes on changing it, made
// without copying: the snapshot shares the world's memory — its entity records, tables' entities, hierarchy and
// sparse sets, and the columns of the listed components — and the world copies what it shares before it next
// writes to it, while the snapshot is held (copy on write). A value written (Map.Mut and Set, World.Set and
// SetField, a query that writes) copies the columns of the components it writes, if the snapshot holds them; any
// other write (a structural change, a hierarchy change, a registration, a new table) copies all the snapshot
// holds. Once release is called (from any goroutine; more than once is fine), the world's writes copy nothing.
//
// The snapshot reads as [World.ReadCopyOf] does: the same entities, hierarchy and registrations, the values of the
// listed components (the others' values, and the computed ones', are zero), no change ticks (no component is
// Added or Changed), no resources. It is for reading, by one goroutine at a time, until release; it must not be
// written (the values it does not hold are read-only memory), and it has no world matrices (WorldMatrix panics).
//
// A pointer the owner got before the snapshot (Map.Mut) must not be written through after it: the write would
// reach the snapshot's memory.
func (w *World) Snapshot(ids ...ComponentID) (snap *World, release func()) {
	h := &snapshotHold{}
	w.shares = append(w.shares, h)
	w.structShared = true
	keep := make([]bool, len(w.comps))
	for _, id := range ids {
		if int(id) < len(keep) && !w.comps[id].info.Computed {
			keep[id] = true
			w.comps[id].shared = true
		}
	}
	s := w.shell()
	s.snapshot = true
	s.records = w.records
	s.hier = hierarchy{active: w.hier.active, nodes: w.hier.nodes}
	need := 0 // bytes of zeros the columns not held read
	for k, st := range w.comps {
		if !keep[k] && st.sparse != nil {
			need = max(need, st.sparse.len()*int(st.size))
		}
	}
	for _, t := range w.tables {
		for i, col := range t.cols {
			if !keep[t.ids[i]] {
				need = max(need, t.len()*int(col.size))
			}
		}
	}
	zero := zeros(need)
	s.comps = make([]*componentStore, len(w.comps))
	for k, st := range w.comps {
		ns := &componentStore{info: st.info, ops: st.ops, size: st.size, trivial: st.trivial, requires: st.requires}
		ns.cols = make([]*column, len(w.tables))
		if sp := st.sparse; sp != nil {
			col := snapshotColumn(sp.col, ns, keep[k], zero)
			ns.sparse = &sparseSet{col: col, cols: []*column{nil, col}, recs: sp.recs, dense: sp.dense, cap: sp.len()}
		}
		s.comps[k] = ns
	}
	for _, t := range w.tables {
		nt := &table{index: t.index, mask: t.mask, ids: t.ids, cap: t.len(), pointers: t.pointers,
			entities: t.entities[:t.len():t.len()]}
		nt.cols = make([]*column, len(t.cols))
		for i, col := range t.cols {
			ns := s.comps[t.ids[i]]
			nt.cols[i] = snapshotColumn(col, ns, keep[t.ids[i]], zero)
			ns.cols[t.index] = nt.cols[i]
		}
		s.tables = append(s.tables, nt)
		s.tableByMask[nt.mask] = nt
	}
	return s, func() { h.released.Store(true) }
}

// snapshotHold is one snapshot of a world, held until released.
type snapshotHold struct{ released atomic.Bool }

// snapshotColumn is a snapshot's column: src's memory if kept, zero (enough zeros for its rows) otherwise; without
// ticks.
func snapshotColumn(src *column, s *componentStore, kept bool, zero unsafe.Pointer) *column {
	d := &column{size: src.size, ops: src.ops, store: s, trivial: src.trivial, ptr: src.ptr}
	if !kept && src.size != 0 {
		d.ptr = zero
	}
	return d
}

// heapZeros returns n bytes of zeros on the Go heap.
func heapZeros(n int) unsafe.Pointer { return unsafe.Pointer(&make([]uint64, (n+7)/8)[0]) }

// zeroMem is memory never written, read as the values of the components a snapshot does not hold (shared by
// every snapshot, made again, bigger, when one needs more).
var zeroMem struct {
	sync.Mutex
	p unsafe.Pointer
	n int
}

// zeros returns at least n bytes of zeros, never written.
func zeros(n int) unsafe.Pointer {
	zeroMem.Lock()
	defer zeroMem.Unlock()
	if n = max(n, 8); zeroMem.n < n {
		n += n / 4 // room for a scene that grows a little
		zeroMem.p, zeroMem.n = zeroPages(n), n
	}
	return zeroMem.p
}

// sharesLive reports whether a snapshot of the world may still read its memory; with none, nothing is shared.
func (w *World) sharesLive() bool {
	keep := w.shares[:0]
	for _, h := range w.shares {
		if !h.released.Load() {
			keep = append(keep, h)
		}
	}
	clear(w.shares[len(keep):])
	w.shares = keep
	if len(keep) > 0 {
		return true
	}
	w.structShared = false
	for _, s := range w.comps {
		s.shared = false
	}
	return false
}

// unshareValues copies, before the owner writes values of component id, its columns if a live snapshot holds them.
func (w *World) unshareValues(id ComponentID) {
	if s := w.comps[id]; s.shared && w.sharesLive() && s.shared {
		w.copyColumns(s)
	}
}

// unshareAll copies, before any other write of the owner, everything a live snapshot holds.
func (w *World) unshareAll() {
	if len(w.shares) == 0 || !w.sharesLive() {
		return
	}
	for _, s := range w.comps {
		if s.shared {
			w.copyColumns(s)
		}
	}
	if w.structShared {
		w.records = cloneWithCap(w.records)
		w.hier.nodes = cloneWithCap(w.hier.nodes)
		for _, t := range w.tables {
			es := make([]Entity, t.len(), t.cap)
			copyInChunks(es, t.entities)
			t.entities = es
		}
		for _, s := range w.comps {
			if sp := s.sparse; sp != nil {
				sp.recs = cloneWithCap(sp.recs)
				sp.dense = cloneWithCap(sp.dense)
			}
		}
	}
	// Nothing of the world's is shared any more: the snapshots read memory of their own.
	clear(w.shares)
	w.shares = w.shares[:0]
	w.structShared = false
}

// copyColumns gives the world its own copy of s's columns (the snapshots keep the memory they read).
func (w *World) copyColumns(s *componentStore) {
	s.shared = false
	if s.size == 0 {
		return
	}
	cp := func(c *column, n, capacity int) {
		p := c.ops.alloc(capacity)
		if n > 0 {
			prefault.Range(p, uintptr(n)*c.size)
			c.ops.deepCopy(p, c.ptr, n, s.info.SharesMemory)
		}
		c.ptr = p
	}
	if sp := s.sparse; sp != nil {
		cp(sp.col, sp.len(), sp.cap)
		return
	}
	for ti, c := range s.cols {
		if c != nil {
			cp(c, w.tables[ti].len(), w.tables[ti].cap)
		}
	}
}

// cloneWithCap is slices.Clone keeping the capacity (the room made ahead stays).
func cloneWithCap[T any](s []T) []T {
	if s == nil {
		return nil
	}
	c := make([]T, len(s), cap(s))
	copyInChunks(c, s)
	return c
}
