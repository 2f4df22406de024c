package ecs

import (
	"maps"
	"reflect"
	"slices"
)

// Clone returns a deep copy of the world for play mode: the same entities with the same handles
// (index and generation), components (slices, maps and pointers inside them are copied too),
// change ticks, hierarchy, resources (copied the same way) and registrations (same IDs). Systems,
// queries, maps, event queues and readers, and command buffers are not copied: they stay bound to
// the original world, so create new ones for the clone.
func (w *World) Clone() *World {
	c := &World{
		records:     slices.Clone(w.records),
		free:        slices.Clone(w.free),
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
	for _, s := range w.comps {
		ns := &componentStore{info: s.info, ops: s.ops, size: s.size, trivial: s.trivial,
			requires: s.requires, lastChange: s.lastChange}
		ns.cols = make([]*column, len(w.tables))
		if s.sparse != nil {
			sp := s.sparse
			col := cloneColumn(sp.col, ns, sp.len(), sp.cap)
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
	for _, t := range w.tables {
		nt := &table{index: t.index, mask: t.mask, ids: t.ids, cap: t.cap, pointers: t.pointers,
			entities: append(make([]Entity, 0, t.cap), t.entities...),
			// transitions are rebuilt lazily: they point at the original's tables
		}
		nt.cols = make([]*column, len(t.cols))
		for i, col := range t.cols {
			ns := c.comps[t.ids[i]]
			nt.cols[i] = cloneColumn(col, ns, t.len(), t.cap)
			ns.cols[t.index] = nt.cols[i]
		}
		c.tables = append(c.tables, nt)
		c.tableByMask[nt.mask] = nt
	}
	h := &w.hier
	c.hier = hierarchy{active: h.active, nodes: slices.Clone(h.nodes), dirty: slices.Clone(h.dirty)}
	for t, r := range w.resources {
		nv := reflect.New(t)
		nv.Elem().Set(deepCopyValue(reflect.ValueOf(r.v).Elem()))
		c.resources[t] = &resourceEntry{v: nv.Interface()}
	}
	if w.prop.changed != nil {
		// keep the propagation state: the clone's matrices are as up to date as the original's
		c.prop.changed = newQueryState(c, []ComponentID{c.transformID},
			[]Term{{termChanged, transformType}, {termRead, transformType}})
		c.prop.changed.lastRun = w.prop.changed.lastRun
	}
	return c
}

func cloneColumn(src *column, s *componentStore, n, capacity int) *column {
	d := &column{size: src.size, ops: src.ops, store: s, trivial: src.trivial, floor: src.floor}
	d.ptr = src.ops.alloc(capacity)
	if n > 0 && src.size != 0 {
		src.ops.deepCopy(d.ptr, src.ptr, n, src.store.info.SharesMemory)
	}
	d.added = slices.Clone(src.added)
	d.changed = slices.Clone(src.changed)
	d.pageAdded = slices.Clone(src.pageAdded)
	d.pageChanged = slices.Clone(src.pageChanged)
	d.pageOlder = slices.Clone(src.pageOlder)
	d.pageMask = slices.Clone(src.pageMask)
	return d
}
