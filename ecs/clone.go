package ecs

import (
	"github.com/voltex-editor/voltex/internal/prefault"
	"maps"
	"reflect"
	"runtime"
	"slices"
	"sync"
	"unsafe"
)

// Clone returns a deep copy of the world for play mode: the same entities with the same handles
// (index and generation), components (slices, maps and pointers inside them are copied too),
// change ticks, hierarchy, resources (copied the same way) and registrations (same IDs). Systems,
// queries, maps, event queues and readers, and command buffers are not copied: they stay bound to
// the original world, so create new ones for the clone.
func (w *World) Clone() *World { return w.clone(true, nil) }

// ReadCopy returns a copy of the world to read on another goroutine while the world goes on changing — what a
// save writes: the same entities with the same handles, components, hierarchy, resources and registrations as
// [World.Clone], but without what a reader of the scene does not need, which is most of a big clone's memory
// (a clone of a million entities is some 280 MB of new memory, slow to touch where page faults are dear): its
// change ticks are all zero (no component is Added or Changed), and components computed by the world
// ([ComponentInfo].Computed: GlobalTransform) hold zero values, which stay zero (with no change ticks there is
// nothing for [World.PropagateTransforms] to do). It is for reading; use Clone for a world to go on with.
func (w *World) ReadCopy() *World { return w.clone(false, nil) }

// ReadCopyOf is ReadCopy with the values of the listed components only: the others hold zero values, as computed
// ones do. A reader of a few columns (a search) copies what it reads, not the whole world.
func (w *World) ReadCopyOf(ids ...ComponentID) *World {
	keep := make([]bool, len(w.comps))
	for _, id := range ids {
		if int(id) < len(keep) {
			keep[id] = true
		}
	}
	return w.clone(false, keep)
}

// clone is Clone, or ReadCopy when full is false; keep, if not nil, says which components' values a ReadCopy copies.
func (w *World) clone(full bool, keep []bool) *World {
	c := w.shell()
	c.free = slices.Clone(w.free)
	for k, s := range w.comps {
		ns := &componentStore{info: s.info, ops: s.ops, size: s.size, trivial: s.trivial,
			requires: s.requires, lastChange: s.lastChange}
		if !full {
			ns.lastChange = 0
		}
		ns.cols = make([]*column, len(w.tables))
		if s.sparse != nil {
			sp := s.sparse
			col := cloneColumn(sp.col, ns, sp.len(), sp.cap, full, kept(keep, ComponentID(k)))
			ns.sparse = &sparseSet{
				col:   col,
				cols:  []*column{nil, col},
				recs:  slices.Clone(sp.recs),
				dense: append(make([]Entity, 0, sp.cap), sp.dense...),
				cap:   sp.cap,
			}
		}
		c.comps = append(c.comps, ns)
	}
	var copies []weighed // the entity records, the hierarchy and the big tables' columns, on several goroutines
	rows := 0
	for _, t := range w.tables {
		rows += t.len()
	}
	parallel := rows >= parallelCloneRows && runtime.GOMAXPROCS(0) > 1
	h := &w.hier
	c.hier = hierarchy{active: h.active}
	for _, f := range []weighed{
		{func() { c.records = cloneInChunks(w.records) }, len(w.records) * int(unsafe.Sizeof(w.records[0]))},
		{func() { c.hier.nodes = cloneInChunks(h.nodes) }, len(h.nodes) * int(unsafe.Sizeof(h.nodes[0]))},
		{func() { c.hier.dirty = cloneInChunks(h.dirty) }, len(h.dirty) * int(unsafe.Sizeof(h.dirty[0]))},
	} {
		if parallel {
			copies = append(copies, f)
		} else {
			f.f()
		}
	}
	for _, t := range w.tables {
		// transitions are rebuilt lazily: they point at the original's tables
		nt := &table{index: t.index, mask: t.mask, ids: t.ids, cap: t.cap, pointers: t.pointers}
		nt.cols = make([]*column, len(t.cols))
		big := parallel && t.len() >= parallelCloneRows/16
		copyTable := func() {
			nt.entities = make([]Entity, len(t.entities), t.cap)
			copyInChunks(nt.entities, t.entities)
		}
		if big {
			copies = append(copies, weighed{copyTable, t.len() * int(unsafe.Sizeof(Entity{}))})
		} else {
			copyTable()
		}
		for i, col := range t.cols {
			ns := c.comps[t.ids[i]]
			copyCol := func() {
				nt.cols[i] = cloneColumn(col, ns, t.len(), t.cap, full, kept(keep, t.ids[i]))
				ns.cols[t.index] = nt.cols[i]
			}
			if big {
				copies = append(copies, weighed{copyCol, t.len() * (int(col.size) + 8)}) // the value and two ticks
			} else {
				copyCol()
			}
		}
		c.tables = append(c.tables, nt)
		c.tableByMask[nt.mask] = nt
	}
	runAll(copies)
	for t, r := range w.resources {
		nv := reflect.New(t)
		nv.Elem().Set(deepCopyValue(reflect.ValueOf(r.v).Elem()))
		c.resources[t] = &resourceEntry{v: nv.Interface()}
	}
	if full && w.prop.changed != nil {
		// keep the propagation state: the clone's matrices are as up to date as the original's
		c.prop.changed = newQueryState(c, []ComponentID{c.transformID},
			[]Term{{termChanged, transformType}, {termRead, transformType}})
		c.prop.changed.lastRun = w.prop.changed.lastRun
	}
	return c
}

// shell returns a world with w's registrations, live count and ticks, and nothing else: no entities, tables,
// resources nor hierarchy (a clone or snapshot fills them in).
func (w *World) shell() *World {
	return &World{
		alive:       w.alive,
		tableByMask: map[mask]*table{},
		compIDs:     slices.Clone(w.compIDs),
		typeToID:    maps.Clone(w.typeToID),
		nameToID:    maps.Clone(w.nameToID),
		sparseIDs:   slices.Clone(w.sparseIDs),
		tick:        w.tick,
		resources:   map[reflect.Type]*resourceEntry{},
		events:      map[reflect.Type]eventQueue{},
		updates:     w.updates,
		transformID: w.transformID,
		globalID:    w.globalID,
	}
}

// kept reports whether a copy that keeps the values of the components in keep (nil: all) copies id's.
func kept(keep []bool, id ComponentID) bool {
	if keep == nil {
		return true
	}
	return int(id) < len(keep) && keep[id]
}

// parallelCloneRows is the number of rows from which Clone copies the big tables' columns on several goroutines:
// a clone of a million entities is some 280 MB of new memory, and on a virtual machine whose page faults cost
// 13–35 µs most of its time is the kernel's, on the one thread that touches the pages.
const parallelCloneRows = 1 << 16

// copyChunk is the most bytes one copy of a big clone moves at once. The runtime's memmove cannot be preempted,
// and on fresh pages (page faults of 13–35 µs on the machine docs/performance.md describes) a copy of a column of
// tens of MB in one call held a collection's stop-the-world for 100–180 ms while the other goroutines waited.
const copyChunk = 256 << 10

// copyInChunks copies src into dst (as copy does, but for slices that do not overlap) at most copyChunk bytes at a
// time, so that the goroutine can be preempted between chunks.
func copyInChunks[T any](dst, src []T) {
	var z T
	step := max(1, copyChunk/max(int(unsafe.Sizeof(z)), 1))
	n := min(len(dst), len(src))
	for i := 0; i < n; i += step {
		copy(dst[i:min(i+step, n)], src[i:min(i+step, n)])
	}
}

// cloneInChunks is slices.Clone made with copyInChunks.
func cloneInChunks[T any](s []T) []T {
	if s == nil {
		return nil
	}
	c := make([]T, len(s))
	prefault.Slice(c)
	copyInChunks(c, s)
	return c
}

// weighed is a piece of work and about how many bytes it touches.
type weighed struct {
	f     func()
	bytes int
}

// runAll runs fs on GOMAXPROCS goroutines, the heaviest first, and returns when all are done.
func runAll(fs []weighed) {
	if len(fs) == 0 {
		return
	}
	slices.SortStableFunc(fs, func(a, b weighed) int { return b.bytes - a.bytes })
	var next sync.Mutex
	i := 0
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(fs)) {
		wg.Go(func() {
			for {
				next.Lock()
				k := i
				i++
				next.Unlock()
				if k >= len(fs) {
					return
				}
				fs[k].f()
			}
		})
	}
	wg.Wait()
}

// cloneColumn copies src's first n rows into a new column of capacity rows; with full false (ReadCopy), without
// their ticks (zero), nor the values of a computed component or of one not kept (zero).
func cloneColumn(src *column, s *componentStore, n, capacity int, full, kept bool) *column {
	d := &column{size: src.size, ops: src.ops, store: s, trivial: src.trivial, floor: src.floor}
	d.ptr = src.ops.alloc(capacity)
	if n > 0 && src.size != 0 && (full || (kept && !src.store.info.Computed)) {
		prefault.Range(d.ptr, uintptr(n)*src.size)
		src.ops.deepCopy(d.ptr, src.ptr, n, src.store.info.SharesMemory)
	}
	if !full {
		d.floor = 0
		d.added, d.changed = make([]uint32, len(src.added)), make([]uint32, len(src.changed))
		d.pageAdded, d.pageChanged = make([]uint32, len(src.pageAdded)), make([]uint32, len(src.pageChanged))
		d.pageOlder, d.pageMask = make([]uint32, len(src.pageOlder)), make([]uint64, len(src.pageMask))
		return d
	}
	d.added = cloneInChunks(src.added)
	d.changed = cloneInChunks(src.changed)
	d.pageAdded = slices.Clone(src.pageAdded)
	d.pageChanged = slices.Clone(src.pageChanged)
	d.pageOlder = slices.Clone(src.pageOlder)
	d.pageMask = slices.Clone(src.pageMask)
	return d
}
